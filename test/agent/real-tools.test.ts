import { access, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";
import { Agent } from "../../source/agent/agent.js";
import { runProcess } from "../../source/process/runner.js";
import { builtinTools } from "../../source/tools/registry.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import {
  agentFixture,
  drive,
  modelFor,
  ofType,
  prompts,
  testPolicy,
  toolOutputs,
} from "./helpers.js";

const fx = agentFixture();

function agent(s: FakeOpenAIServer): Agent {
  return new Agent({
    model: modelFor(s, "chat"),
    modelId: "fake-model",
    tools: builtinTools(),
    cwd: fx.dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: fx.dir },
    runner: runProcess,
    // This test is about the tools themselves: the user allowed everything.
    permissions: testPolicy(fx.dir, "bypassPermissions"),
    sessionId: "real-tools",
    transcriptPath: path.join(fx.dir, ".home", "t.jsonl"),
    maxModelRetries: 0,
  });
}

test("a multi-step task with the built-in tools, a blocked Bash call and the model seeing results", async () => {
  fx.server = await startFakeOpenAI([
    {
      toolCalls: [{ name: "Write", input: { file_path: "notes/a.txt", content: "alpha\nbeta\n" } }],
    },
    {
      toolCalls: [
        { name: "Bash", input: { command: "wc -l < notes/a.txt && echo err >&2 && exit 3" } },
        { name: "Bash", input: { command: "rm -rf notes" } },
      ],
    },
    {
      toolCalls: [
        {
          name: "Edit",
          input: { file_path: "notes/a.txt", old_string: "beta", new_string: "gamma" },
        },
      ],
    },
    {
      toolCalls: [
        { name: "Read", input: { file_path: "notes/a.txt" } },
        { name: "Grep", input: { pattern: "gamma" } },
      ],
    },
    { text: "Wrote, counted, edited and read the file." },
  ]);
  const events = await drive(agent(fx.server), { prompts: prompts("do the file dance") }, (e) =>
    e.type === "tool_call_start" &&
    e.toolName === "Bash" &&
    String((e.input as { command: string }).command).includes("rm -rf")
      ? { action: "block", reason: "guard: rm -rf is not allowed" }
      : undefined,
  );
  expect(ofType(events, "turn_end")[0]).toMatchObject({
    stopReason: "end_turn",
    text: "Wrote, counted, edited and read the file.",
  });
  expect(await readFile(path.join(fx.dir, "notes/a.txt"), "utf8")).toBe("alpha\ngamma\n");

  const ends = ofType(events, "tool_call_end");
  const errors = ofType(events, "tool_call_error");
  const bashEnd = ends.find((e) => e.toolName === "Bash");
  // A non-zero exit is a result the model sees (with its exit code), not a crash.
  const bashResult = bashEnd?.response ?? errors.find((e) => e.toolName === "Bash" && !e.blocked);
  expect(bashResult).toBeDefined();
  expect(errors.find((e) => e.blocked)).toMatchObject({
    toolName: "Bash",
    error: "guard: rm -rf is not allowed",
  });
  expect(ends.find((e) => e.toolName === "Read")?.output).toContain("gamma");
  expect(ends.find((e) => e.toolName === "Grep")?.output).toContain("a.txt");

  // The fake server names calls call_<request>_<index>: the Bash calls came with request 2.
  const afterBash = toolOutputs(fx.server.requests[2]?.body);
  // Failed calls go back as the provider's error result ({"error": "..."} over the OpenAI APIs).
  expect(JSON.parse(afterBash.call_2_0 ?? "{}").error).toMatch(/exit code 3[\s\S]*\b2\b[\s\S]*err/);
  expect(afterBash.call_2_1).toContain("guard: rm -rf is not allowed");
  await access(path.join(fx.dir, "notes"));
});

test("an invalid input is reported once, prefixed once", async () => {
  fx.server = await startFakeOpenAI([
    { toolCalls: [{ name: "Read", input: { file_path: "a.txt", offset: 0 } }] },
    { text: "ok" },
  ]);
  const events = await drive(agent(fx.server), { prompts: prompts("read it") });
  const error = ofType(events, "tool_call_error")[0]?.error ?? "";
  expect(error).toMatch(/^Invalid input for Read: offset: /);
  expect(error.match(/Invalid input for/g)).toHaveLength(1);
});

test("aborting a running Bash command kills it and ends the session at once", async () => {
  fx.server = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", input: { command: "sleep 30; echo finished > done.txt" } }] },
    { text: "never" },
  ]);
  const controller = new AbortController();
  const started = Date.now();
  const events = await drive(
    agent(fx.server),
    { prompts: prompts("sleep"), signal: controller.signal },
    (e) => {
      if (e.type === "tool_call_start") setTimeout(() => controller.abort(), 100);
      return undefined;
    },
  );
  expect(Date.now() - started).toBeLessThan(10_000);
  expect(ofType(events, "tool_call_error")[0]).toMatchObject({
    toolName: "Bash",
    interrupted: true,
  });
  expect(events.at(-1)).toMatchObject({ type: "session_end", reason: "aborted" });
  await expect(access(path.join(fx.dir, "done.txt"))).rejects.toThrow();
});
