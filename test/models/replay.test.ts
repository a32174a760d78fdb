import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { streamText } from "ai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { Agent } from "../../source/agent/agent.js";
import type { AgentEvent } from "../../source/agent/events.js";
import { ModelConfigError } from "../../source/models/errors.js";
import {
  createReplayModel,
  loadReplayScript,
  replayModelFromScript,
} from "../../source/models/replay.js";
import { resolveModel } from "../../source/models/resolve.js";
import { runProcess } from "../../source/process/runner.js";
import { builtinTools } from "../../source/tools/registry.js";
import { testPolicy } from "../agent/helpers.js";

const repoRoot = path.resolve(import.meta.dirname, "../..");
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-replay-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function runAgent(agent: Agent, prompt: string): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const event of agent.run({ prompts: [{ prompt }] })) events.push(event);
  return events;
}

function errorOf(fn: () => unknown): ModelConfigError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError);
    return error as ModelConfigError;
  }
  throw new Error("expected a ModelConfigError");
}

describe("replay model", () => {
  test("the shipped demo runs end to end with the real tools", async () => {
    await writeFile(path.join(dir, "README.md"), "# Sample project\n\nIt does things.\n");
    const { model, modelId } = resolveModel({
      spec: `replay:${path.join(repoRoot, "examples/replay/demo.json")}`,
      env: {},
      cwd: dir,
    });
    const agent = new Agent({
      model,
      modelId,
      tools: builtinTools(),
      cwd: dir,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
      runner: runProcess,
      permissions: testPolicy(dir, "bypassPermissions"),
      sessionId: "replay-demo",
      transcriptPath: path.join(dir, ".home", "t.jsonl"),
    });
    const events = await runAgent(agent, "summarize");
    const ends = events.filter((e) => e.type === "tool_call_end");
    expect(ends.map((e) => e.toolName)).toEqual(["Glob", "Read", "Write"]);
    expect(ends[0]?.output).toContain("README.md");
    expect(ends[1]?.output).toContain("Sample project");
    expect(events.filter((e) => e.type === "tool_call_error")).toEqual([]);
    const note = await readFile(path.join(dir, "ACAI_DEMO.md"), "utf8");
    expect(note).toContain("replay model");
    const turnEnd = events.find((e) => e.type === "turn_end");
    expect(turnEnd).toMatchObject({ stopReason: "end_turn" });
    expect(turnEnd?.type === "turn_end" && turnEnd.text).toContain("ACAI_DEMO.md");
    expect(turnEnd?.type === "turn_end" && turnEnd.usage.totalTokens).toBeGreaterThan(0);
    const text = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("");
    expect(text).toContain("Let me look at the project first.");
  });

  test("streams text in chunks, serves turns in order and says when it is exhausted", async () => {
    const model = replayModelFromScript(
      {
        turns: [
          { text: "first reply, long enough to be chunked" },
          { tool_calls: [{ name: "Echo", input: { a: 1 } }] },
        ],
      },
      { label: "inline.json" },
    );
    const deltas: string[] = [];
    const first = streamText({ model, prompt: "hi" });
    for await (const part of first.stream) if (part.type === "text-delta") deltas.push(part.text);
    expect(deltas.length).toBeGreaterThan(2);
    expect(deltas.join("")).toBe("first reply, long enough to be chunked");
    expect(await first.finishReason).toBe("stop");

    const second = streamText({ model, prompt: "hi" });
    await second.consumeStream();
    expect(await second.finishReason).toBe("tool-calls");
    const calls = await second.toolCalls;
    expect(calls.map((c) => [c.toolName, c.input])).toEqual([["Echo", { a: 1 }]]);

    const third = streamText({ model, prompt: "hi" });
    expect(await third.text).toMatch(
      /replay script inline\.json is exhausted: it has 2 turn\(s\) and this is model request 3/,
    );
    expect(await third.finishReason).toBe("stop");
  });

  test("doGenerate serves the same script", async () => {
    const model = replayModelFromScript({
      turns: [{ text: "hello", tool_calls: [{ name: "Glob", input: { pattern: "*" } }] }],
    });
    const result = await model.doGenerate({ prompt: [] });
    expect(result.content).toEqual([
      { type: "text", text: "hello" },
      { type: "tool-call", toolCallId: "replay_1_1", toolName: "Glob", input: '{"pattern":"*"}' },
    ]);
    expect(result.finishReason.unified).toBe("tool-calls");
  });

  test("bad files give errors naming the file and the field", async () => {
    const missing = path.join(dir, "nope.json");
    expect(errorOf(() => createReplayModel(missing)).message).toMatch(
      /replay file .*nope\.json does not exist/,
    );

    const broken = path.join(dir, "broken.json");
    await writeFile(broken, "{ turns: [");
    expect(errorOf(() => loadReplayScript(broken)).message).toMatch(
      /broken\.json is not valid JSON/,
    );

    const typo = path.join(dir, "typo.json");
    await writeFile(typo, JSON.stringify({ turns: [{ text: "ok" }, { toolCalls: [] }] }));
    const typoMessage = errorOf(() => loadReplayScript(typo)).message;
    expect(typoMessage).toContain("typo.json");
    expect(typoMessage).toContain("turns[1]");
    expect(typoMessage).toContain("toolCalls");

    const badInput = path.join(dir, "bad-input.json");
    await writeFile(
      badInput,
      JSON.stringify({ turns: [{ tool_calls: [{ name: "Bash", input: "ls" }] }] }),
    );
    expect(errorOf(() => loadReplayScript(badInput)).message).toContain(
      "turns[0].tool_calls[0].input",
    );

    const empty = path.join(dir, "empty-turn.json");
    await writeFile(empty, JSON.stringify({ turns: [{}] }));
    expect(errorOf(() => loadReplayScript(empty)).message).toContain(
      'needs "text" or at least one entry',
    );

    const noTurns = path.join(dir, "no-turns.json");
    await writeFile(noTurns, JSON.stringify({ steps: [] }));
    const noTurnsMessage = errorOf(() => loadReplayScript(noTurns)).message;
    expect(noTurnsMessage).toContain("turns");
    expect(noTurnsMessage).not.toContain("\n");
  });

  test("every shipped scenario is a valid replay script", async () => {
    const { readdir } = await import("node:fs/promises");
    const files = (await readdir(path.join(repoRoot, "examples/replay"))).filter((f) =>
      f.endsWith(".json"),
    );
    expect(files).toContain("demo.json");
    for (const file of files) {
      expect(
        loadReplayScript(path.join(repoRoot, "examples/replay", file)).turns.length,
      ).toBeGreaterThan(0);
    }
  });
});
