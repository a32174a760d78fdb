import { expect, test } from "vitest";
import { parseSessionTranscript } from "../../../source/session/resume/load.js";

const user = (text: string, uuid: string) =>
  JSON.stringify({
    type: "user",
    message: { role: "user", content: [{ type: "text", text }] },
    uuid,
    parentUuid: null,
    sessionId: "s",
    timestamp: "2026-01-01T00:00:00.000Z",
    cwd: "/p",
  });

test("the conversation after the last compaction boundary is what reloads", () => {
  const text = [
    JSON.stringify({
      type: "event",
      time: "t0",
      event: { type: "session_start", sessionId: "s", cwd: "/p", model: "m" },
    }),
    JSON.stringify({
      type: "event",
      time: "t1",
      event: { type: "turn_start", turn: 1, prompt: "first" },
    }),
    user("old", "u1"),
    JSON.stringify({
      type: "compact_boundary",
      time: "t2",
      uuid: "b",
      sessionId: "s",
      trigger: "auto",
      tokensBefore: 9,
    }),
    user("summary", "u2"),
    user("recent", "u3"),
  ].join("\n");
  const record = parseSessionTranscript(text, "/t.jsonl");
  expect(record.messages).toEqual([
    { role: "user", content: "summary" },
    { role: "user", content: "recent" },
  ]);
  expect(record).toMatchObject({
    sessionId: "s",
    cwd: "/p",
    model: "m",
    turns: 1,
    firstPrompt: "first",
    lastUuid: "u3",
  });
  expect(record.warnings).toEqual([]);
});

test("hostile lines are skipped with warnings naming the file and line, never a crash", () => {
  const text = [
    "{not json",
    "[".repeat(100_000),
    JSON.stringify({
      type: "assistant",
      message: { role: "assistant", content: [{ type: "bogus" }] },
    }),
    JSON.stringify({ type: "user", message: "nope" }),
    user("kept", "u1"),
    '{"torn',
  ].join("\n");
  const record = parseSessionTranscript(text, "/t.jsonl");
  expect(record.messages).toEqual([{ role: "user", content: "kept" }]);
  expect(record.warnings).toHaveLength(4);
  expect(record.warnings[0]).toBe("/t.jsonl:1: not JSON; the line is skipped.");
  expect(record.warnings[1]).toContain("/t.jsonl:2: the line nests too deep");
});

test("a transcript ending in a tool call without its result reloads with an interrupted result and a note", () => {
  const assistantLine = JSON.stringify({
    type: "assistant",
    message: {
      role: "assistant",
      content: [{ type: "tool_use", id: "call_1", name: "Bash", input: { command: "sleep 9" } }],
    },
    uuid: "a1",
    parentUuid: "u1",
    sessionId: "s",
    timestamp: "2026-01-01T00:00:01.000Z",
    cwd: "/p",
  });
  const record = parseSessionTranscript([user("go", "u1"), assistantLine].join("\n"), "/t.jsonl");
  expect(record.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  expect(JSON.stringify(record.messages[2])).toContain("call_1");
  expect(JSON.stringify(record.messages[2])).toContain("Interrupted");
  expect(record.warnings).toHaveLength(1);
  expect(record.warnings[0]).toContain("/t.jsonl");
  expect(record.warnings[0]).toContain("Bash");
});

test("a hook's prompt rewrite replaces the last user message with that text; a malformed one is skipped", () => {
  const rewrite = (was: unknown, text: unknown) =>
    JSON.stringify({ type: "prompt_rewrite", time: "t", was, text });
  const lines = [
    user("go", "u1"),
    user("go", "u2"),
    rewrite("go", "[ticket] go"),
    rewrite("not in the conversation", "ignored"),
    rewrite(7, "bad"),
  ].join("\n");
  const record = parseSessionTranscript(lines, "/t.jsonl");
  expect(record.messages).toEqual([
    { role: "user", content: "go" },
    { role: "user", content: "[ticket] go" },
  ]);
  expect(record.warnings).toEqual([
    "/t.jsonl:5: not a prompt rewrite acai can read; the line is skipped.",
  ]);
});

const verdict = (forType: string, value: Record<string, unknown>) =>
  JSON.stringify({ type: "verdict", time: "t", verdict: value, for: forType });

test("a blocked prompt's hook context waits for the next turn until a message delivers it", () => {
  const block = verdict("user_prompt", {
    action: "block",
    reason: "no",
    context: ["keep the lighthouse note", "  "],
  });
  const blocked = parseSessionTranscript(block, "/t.jsonl");
  expect(blocked).toMatchObject({ blockedPrompts: 1, turns: 0, messages: [] });
  expect(blocked.context).toEqual(["keep the lighthouse note"]);
  // The next prompt alone does not deliver it; the system-reminder message does.
  const prompted = parseSessionTranscript([block, user("next", "u1")].join("\n"), "/t.jsonl");
  expect(prompted.context).toEqual(["keep the lighthouse note"]);
  const reminder = "<system-reminder>\nkeep the lighthouse note\n</system-reminder>";
  const sent = parseSessionTranscript(
    [block, user("next", "u1"), user(reminder, "u2")].join("\n"),
    "/t.jsonl",
  );
  expect(sent.context).toEqual([]);
});

test("only a user_prompt block keeps context: other verdicts' and malformed lines' do not", () => {
  const text = [
    verdict("user_prompt", { action: "continue", context: ["a continue's context"] }),
    verdict("after_agent", { action: "continue", context: ["a turn end's context"] }),
    verdict("model_request", { action: "block", reason: "r", context: ["a request's"] }),
    verdict("user_prompt", { action: "block", reason: "r", context: "not a list" }),
  ].join("\n");
  const record = parseSessionTranscript(text, "/t.jsonl");
  expect(record.context).toEqual([]);
  expect(record.blockedPrompts).toBe(0);
  expect(record.warnings).toEqual([]);
});
