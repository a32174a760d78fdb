/**
 * Subagents end to end through `acai -p` against the scripted model server:
 * a Task call runs a nested agent whose tool calls reach `before_tool` hooks
 * marked with `agent_id`; subagent_start blocking fails the Task call with the
 * reason; subagent_stop blocking keeps the subagent working; stream-json marks
 * the subagent's events; SIGTERM reaches the subagent's tool and leaves nothing.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Markers, pidsWith, survivors, waitFor } from "../process/survivors.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  scriptBySystemPrompt,
  startFakeOpenAI,
  systemPromptOf,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai, startAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";
import { installHooks } from "./hooks-support.js";

const markers = new Markers();
let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** Every subagent's system prompt says so (subagents/run.ts SUBAGENT_PROMPT_NOTE). */
const SUBAGENT = "You are a subagent";

/** Records every payload; blocks subagent_start on NO-SUB and the first subagent_stop of each subagent. */
const RECORDER = String.raw`#!/usr/bin/env bash
input=$(cat)
printf '%s\n' "$input" >> "$HOOK_E2E_DIR/payloads.jsonl"
# HOOK.md hooks get Python's json.dumps text ("key": value); the matches below are written compact.
input=$(printf '%s' "$input" | sed -e 's/": /":/g')
# Fields in any order (Claude Code's key order puts "event" after some of them).
case "$input" in
  *'"event":"subagent_start"'*)
    if [[ "$input" == *NO-SUB* ]]; then echo "SUBAGENTS-REFUSED" >&2; exit 2; fi
    echo '{"context":"START-CONTEXT"}' ;;
  *'"event":"subagent_stop"'*)
    if [[ "$input" == *'"stop_hook_active":false'* ]]; then echo '{"action":"block","reason":"CHECK-AGAIN"}'; fi ;;
esac
exit 0
`;

function taskCall(description: string, prompt: string, type = "general-purpose"): FakeTurn {
  return {
    toolCalls: [
      { name: "Task", input: { description, prompt, subagent_type: type }, id: "call_task" },
    ],
  };
}

async function setup(subagentTurns: FakeTurn[], parentTurns: FakeTurn[]): Promise<AcaiDirs> {
  const d = await makeAcaiDirs("acai-subagents-e2e-");
  dirs = d;
  await installHooks(d, "executable", [
    {
      name: "recorder",
      events: ["before_tool", "after_tool", "subagent_start", "subagent_stop", "before_stop"],
      script: RECORDER,
    },
  ]);
  server = await startFakeOpenAI(
    scriptBySystemPrompt([{ system: SUBAGENT, turns: subagentTurns }], parentTurns),
  );
  return d;
}

function run(d: AcaiDirs, s: FakeOpenAIServer, extra: string[] = []) {
  return runAcai({
    dirs: d,
    args: [
      "-p",
      "delegate it",
      "--trust-project-hooks",
      "--yes",
      ...extra,
      ...modelArgs("chat", s),
    ],
    baseUrl: s.url,
    env: { HOOK_E2E_DIR: d.root },
    timeoutMs: 30_000,
  });
}

async function payloads(d: AcaiDirs): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(d.root, "payloads.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const fake = (s: FakeOpenAIServer) => s.requests.length;

const subRequests = (s: FakeOpenAIServer) =>
  s.requests.filter((r) => r.api === "chat" && systemPromptOf(r).includes(SUBAGENT));

describe("subagents (the Task tool)", () => {
  it("runs a subagent whose tool calls hooks see with agent_id; subagent_stop blocking keeps it working", async () => {
    const d = await setup(
      [
        { toolCalls: [{ name: "Bash", input: { command: "echo from-sub" } }] },
        { text: "SUB-ANSWER-1" },
        { text: "SUB-ANSWER-2" },
      ],
      [taskCall("look around", "Run echo and report"), { text: "PARENT-DONE" }],
    );
    const s = server as FakeOpenAIServer;
    const result = await run(d, s, ["--output-format", "stream-json"]);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode).toBe(0);

    const seen = await payloads(d);
    const start = seen.find((p) => p.event === "subagent_start");
    expect(start).toMatchObject({
      hook_event_name: "SubagentStart",
      agent_type: "general-purpose",
      task_description: "look around",
      subagent_type: "general-purpose",
    });
    const agentId = start?.agent_id;
    expect(typeof agentId).toBe("string");
    const bash = seen.find((p) => p.event === "before_tool" && p.tool_name === "Bash");
    expect(bash).toMatchObject({ agent_id: agentId, agent_type: "general-purpose" });
    const task = seen.find((p) => p.event === "before_tool" && p.tool_name === "Task");
    expect(task).toMatchObject({ tool_input: { description: "look around" } });
    expect(task).not.toHaveProperty("agent_id");
    const stops = seen.filter((p) => p.event === "subagent_stop");
    expect(stops.map((p) => p.stop_hook_active)).toEqual([false, true]);
    expect(stops[1]).toMatchObject({
      agent_id: agentId,
      last_assistant_message: "SUB-ANSWER-2",
      hook_event_name: "SubagentStop",
    });
    expect(String(stops[0]?.agent_transcript_path)).toMatch(/subagents\/agent-.+\.jsonl$/);
    // before_stop is the session's own agent's only.
    expect(seen.filter((p) => p.event === "before_stop")).toHaveLength(1);

    // The subagent got its start context, and the block reason as a user message.
    const sub = subRequests(s);
    expect(sub).toHaveLength(3);
    expect(sub[0]?.rawBody).toContain("START-CONTEXT");
    expect(sub[0]?.rawBody).toContain("Run echo and report");
    expect(sub[2]?.rawBody).toContain("CHECK-AGAIN");
    // Its final text is the Task result the parent's model sees.
    const parentLast = s.requests.filter((r) => !subRequests(s).includes(r)).at(-1);
    expect(toolResultsSent(parentLast?.body).join("\n")).toContain("SUB-ANSWER-2");

    // stream-json marks the subagent's events with its id.
    const events = jsonLines(result.stdout);
    const marked = events.filter((e) => e.agentId === agentId);
    expect(marked.map((e) => e.type)).toEqual(
      expect.arrayContaining([
        "subagent_start",
        "tool_call_start",
        "subagent_stop",
        "subagent_end",
      ]),
    );
    // So does the activity of the hooks that ran on its events.
    expect(marked.filter((e) => e.type === "hook_end").map((e) => e.event)).toEqual(
      expect.arrayContaining(["subagent_start", "before_tool", "after_tool", "subagent_stop"]),
    );
    const taskHooks = events.filter((e) => e.type === "hook_end" && e.agentId === undefined);
    expect(taskHooks.map((e) => e.event)).toContain("before_stop");
    const resultLine = events.at(-1);
    expect(resultLine).toMatchObject({ type: "result", text: "PARENT-DONE", num_turns: 1 });
  });

  it("a subagent_start block fails the Task call with the reason; no subagent runs", async () => {
    const d = await setup(
      [{ text: "never" }],
      [taskCall("NO-SUB please", "anything"), { text: "PARENT-DONE" }],
    );
    const s = server as FakeOpenAIServer;
    const result = await run(d, s);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("PARENT-DONE");
    expect(subRequests(s)).toHaveLength(0);
    const results = toolResultsSent(s.requests.at(-1)?.body).join("\n");
    expect(results).toContain("A subagent_start hook blocked the subagent: SUBAGENTS-REFUSED");
    const failure = (await payloads(d)).find((p) => p.event === "subagent_start");
    expect(failure).toBeDefined();
  });

  it("uses a project agent file's prompt and tools once the project is trusted", async () => {
    const d = await makeAcaiDirs("acai-subagents-e2e-");
    dirs = d;
    await mkdir(path.join(d.cwd, ".acai", "agents"), { recursive: true });
    await writeFile(
      path.join(d.cwd, ".acai", "agents", "reviewer.md"),
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\nREVIEWER-PROMPT: review carefully.\n",
    );
    server = await startFakeOpenAI(
      scriptBySystemPrompt(
        [{ system: "REVIEWER-PROMPT", turns: [{ text: "REVIEW-DONE" }] }],
        [taskCall("review", "review it", "reviewer"), { text: "PARENT-DONE" }],
      ),
    );
    const s = server;
    const untrusted = await runAcai({
      dirs: d,
      args: ["-p", "go", ...modelArgs("chat", s)],
      baseUrl: s.url,
    });
    // The project's agents are in the trust set: an untrusted project does not run.
    expect(untrusted.exitCode).toBe(4);
    expect(fake(s)).toBe(0);
    expect(untrusted.stderr).toContain(
      ".acai/agents/ defines subagent types (their system prompts, tools and models): reviewer.md",
    );
    const result = await runAcai({
      dirs: d,
      args: ["-p", "go", "--trust-project-hooks", ...modelArgs("chat", s)],
      baseUrl: s.url,
    });
    expect(result.exitCode).toBe(0);
    const sub = s.requests.filter((r) => systemPromptOf(r).includes("REVIEWER-PROMPT"));
    expect(sub).toHaveLength(1);
    const tools = ((sub[0]?.body?.tools ?? []) as { function: { name: string } }[]).map(
      (t) => t.function.name,
    );
    expect(tools.sort()).toEqual(["Grep", "Read"]);
    expect(toolResultsSent(s.requests.at(-1)?.body).join("\n")).toContain("REVIEW-DONE");
  });

  it("SIGTERM reaches the subagent's running tool: exit 143, nothing left running", async () => {
    const marker = markers.next();
    const d = await setup(
      [{ toolCalls: [{ name: "Bash", input: { command: `exec -a ${marker} sleep 300` } }] }],
      [taskCall("wait", "sleep a while"), { text: "unreachable" }],
    );
    const s = server as FakeOpenAIServer;
    const child = startAcai({
      dirs: d,
      args: ["-p", "go", "--trust-project-hooks", "--yes", ...modelArgs("chat", s)],
      baseUrl: s.url,
      env: { HOOK_E2E_DIR: d.root },
    });
    expect(await waitFor(() => pidsWith(marker).length === 1, 15_000)).toBe(true);
    child.child.kill("SIGTERM");
    const result = await child.result;
    expect(result.exitCode).toBe(143);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(await survivors(marker)).toEqual([]);
    // The sleeping Bash call was the subagent's: its before_tool payload carried the agent id.
    const seen = await payloads(d);
    expect(seen.some((p) => p.event === "before_tool" && p.agent_id !== undefined)).toBe(true);
  });
});
