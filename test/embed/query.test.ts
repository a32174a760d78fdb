/**
 * `query()` (docs/sdk.md): the program's callback hooks take part in the same
 * chains as hooks from files, in order; their answers are decoded like a
 * command hook's; the abort signal ends the session; the shipped example runs.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type InterceptedEvent, query } from "../../source/embed/index.js";
import { type AcaiDirs, childEnv, makeAcaiDirs, REPO_ROOT } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

async function setUp(turns: unknown[]): Promise<{ d: AcaiDirs; env: Record<string, string> }> {
  const d = await makeAcaiDirs("acai-query-");
  dirs = d;
  await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
  return { d, env: childEnv({ args: [], dirs: d }) };
}

async function collect(events: AsyncIterable<InterceptedEvent>): Promise<InterceptedEvent[]> {
  const seen: InterceptedEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe("query()", () => {
  it("a callback hook blocks rm, after a settings hook of higher priority, and the program sees it", async () => {
    const { d, env } = await setUp([
      { tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { text: "gave up" },
    ]);
    await mkdir(path.join(d.cwd, "build"));
    const order = path.join(d.cwd, "order.log");
    await writeFile(
      path.join(d.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [{ type: "command", command: `cat >/dev/null; echo settings >> ${order}` }],
            },
          ],
        },
      }),
    );
    const inputs: Record<string, unknown>[] = [];
    const events = await collect(
      query({
        prompt: "clean up",
        options: {
          cwd: d.cwd,
          env,
          model: "replay:replay.json",
          allowedTools: ["Bash"],
          hooks: {
            PreToolUse: [
              {
                matcher: "Bash",
                priority: 50,
                hooks: [
                  async (input, toolUseId) => {
                    inputs.push({ ...input, toolUseId });
                    await writeFile(order, `${await readFile(order, "utf8")}callback\n`);
                    return { decision: "block", reason: "no rm from this program" };
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    const refused = events.find((e) => e.type === "tool_call_error");
    expect(refused?.type === "tool_call_error" && refused.blocked).toBe(true);
    expect(refused?.type === "tool_call_error" && refused.error).toContain(
      "no rm from this program",
    );
    expect(existsSync(path.join(d.cwd, "build"))).toBe(true);
    expect(await readFile(order, "utf8")).toBe("settings\ncallback\n");
    expect(inputs[0]?.tool_name).toBe("Bash");
    expect(inputs[0]?.tool_input).toEqual({ command: "rm -rf build" });
    expect(inputs[0]?.toolUseId).toBe(inputs[0]?.tool_use_id);
    const ends = events.filter((e) => e.type === "hook_end");
    expect(ends.map((e) => e.type === "hook_end" && [e.hook.sourceKind, e.outcome])).toEqual([
      ["settings", "continue"],
      ["sdk", "block"],
    ]);
  });

  it("a callback that throws fails open with its message, and an unknown event is refused by name", async () => {
    const { d, env } = await setUp([
      { tool_calls: [{ name: "Bash", input: { command: "echo hi > out.txt" } }] },
      { text: "done" },
    ]);
    const events = await collect(
      query({
        prompt: "go",
        options: {
          cwd: d.cwd,
          env,
          model: "replay:replay.json",
          allowedTools: ["Bash"],
          hooks: {
            before_tool: [
              {
                hooks: [
                  () => {
                    throw new Error("callback broke");
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    const end = events.find((e) => e.type === "hook_end");
    expect(end?.type === "hook_end" && end.outcome).toBe("failed");
    expect(end?.type === "hook_end" && end.detail).toContain("callback broke");
    expect(existsSync(path.join(d.cwd, "out.txt"))).toBe(true);

    const bad = query({ prompt: "x", options: { cwd: d.cwd, env, hooks: { PreToolUze: [] } } });
    await expect(bad.next()).rejects.toThrow(
      'hooks.PreToolUze is not an event acai knows. Did you mean "PreToolUse"?',
    );
  });

  it("the abort signal reaches a waiting callback and ends the session aborted", async () => {
    const { d, env } = await setUp([
      { tool_calls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "done" },
    ]);
    const controller = new AbortController();
    let callbackSignal: AbortSignal | undefined;
    const events = await collect(
      query({
        prompt: "go",
        options: {
          cwd: d.cwd,
          env,
          model: "replay:replay.json",
          signal: controller.signal,
          hooks: {
            PreToolUse: [
              {
                hooks: [
                  (_input, _id, { signal }) => {
                    callbackSignal = signal;
                    controller.abort();
                    return new Promise(() => {});
                  },
                ],
              },
            ],
          },
        },
      }),
    );
    expect(callbackSignal?.aborted).toBe(true);
    const end = events.find((e) => e.type === "session_end");
    expect(end?.type === "session_end" && end.reason).toBe("aborted");
  });

  it("runs the shipped example: the program prints the block", async () => {
    const { d, env } = await setUp([
      { tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { text: "could not remove it" },
    ]);
    const node = path.join(REPO_ROOT, "node_modules", ".bin", "node");
    const run = spawnSync(node, [path.join(REPO_ROOT, "examples", "sdk", "block-rm.ts"), "clean"], {
      cwd: d.cwd,
      env: { ...env, ACAI_MODEL: "replay:replay.json" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain("blocked Bash: rm is not allowed from this program");
    expect(run.stdout).toContain("turn ended: end_turn: could not remove it");
  });
});
