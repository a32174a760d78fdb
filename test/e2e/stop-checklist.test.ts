/**
 * The stop gate is a checklist (contract §5, decision 0025): every Stop hook
 * runs even after one blocks, and the model gets every reason, in order, as
 * Claude Code and Codex give them; the loop cap still ends the turn. A
 * before_tool gate keeps first-block-wins.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** A settings hook that logs its name and blocks with REASON-<name> unless stop_hook_active (or always). */
function stopHook(name: string, always: boolean) {
  const when = always ? "true" : `grep -q '"stop_hook_active":false'`;
  return {
    type: "command",
    command: `input=$(cat); echo ${name} >> "$LOG"; if printf '%s' "$input" | ${when}; then echo "REASON-${name}" >&2; exit 2; fi`,
  };
}

async function setUp(hooks: object): Promise<AcaiDirs> {
  const d = await makeAcaiDirs("acai-stop-checklist-");
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify({ hooks }));
  return d;
}

/** The text of the user messages of one model request. */
function userTexts(s: FakeOpenAIServer, index: number): string[] {
  const messages = (s.requests[index]?.body?.messages ?? []) as {
    role: string;
    content: unknown;
  }[];
  return messages.filter((m) => m.role === "user").map((m) => JSON.stringify(m.content));
}

describe("the stop gate is a checklist", () => {
  it("runs every Stop hook and gives the model every reason, in order", async () => {
    const d = await setUp({
      Stop: [
        {
          hooks: [stopHook("first", false), stopHook("second", false), stopHook("third-ok", false)],
        },
      ],
    });
    dirs = d;
    const log = path.join(d.root, "ran.log");
    // third-ok blocks too on the first stop: three reasons.
    const srv = await startFakeOpenAI([{ text: "I am done." }, { text: "Now really done." }]);
    server = srv;
    const result = await runAcai({
      dirs: d,
      args: ["-p", "go", ...modelArgs("chat", srv)],
      baseUrl: srv.url,
      env: { LOG: log },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(srv.requests).toHaveLength(2);
    const feedback = userTexts(srv, 1).join("\n");
    expect(feedback).toMatch(/REASON-first[\s\S]*REASON-second[\s\S]*REASON-third-ok/);
    // Each hook ran on both stops: the second stop (stop_hook_active) lets go.
    expect((await readFile(log, "utf8")).trim().split("\n")).toEqual([
      "first",
      "second",
      "third-ok",
      "first",
      "second",
      "third-ok",
    ]);
  });

  it("still ends the turn at the loop cap when the hooks never let go", async () => {
    const d = await makeAcaiDirs("acai-stop-cap-");
    dirs = d;
    await writeFile(
      path.join(d.acaiHome, "settings.json"),
      JSON.stringify({
        hookDefaults: { maxStopBlocks: 2 },
        hooks: { Stop: [{ hooks: [stopHook("a", true), stopHook("b", true)] }] },
      }),
    );
    const srv = await startFakeOpenAI(Array.from({ length: 6 }, (_, i) => ({ text: `done ${i}` })));
    server = srv;
    const result = await runAcai({
      dirs: d,
      args: ["-p", "go", ...modelArgs("chat", srv)],
      baseUrl: srv.url,
      env: { LOG: path.join(d.root, "ran.log") },
    });
    // Exit 3: before_stop blocked more than the limit in a row (docs/cli.md, exit codes).
    expect(result.exitCode, result.stderr).toBe(3);
    // maxStopBlocks 2: the first block sends the reasons back, the second ends the turn.
    expect(srv.requests).toHaveLength(2);
    expect(userTexts(srv, 1).join("\n")).toMatch(/REASON-a[\s\S]*REASON-b/);
    expect(result.stderr).toMatch(/REASON-a[\s\S]*REASON-b/);
  });

  it("keeps first-block-wins on before_tool: a later hook does not run after a block", async () => {
    const log = "$LOG";
    const d = await setUp({
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [
            {
              type: "command",
              command: `cat >/dev/null; echo one >> "${log}"; echo NO >&2; exit 2`,
            },
            { type: "command", command: `cat >/dev/null; echo two >> "${log}"` },
          ],
        },
      ],
    });
    dirs = d;
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "ok" },
    ]);
    server = srv;
    const ranLog = path.join(d.root, "ran.log");
    const result = await runAcai({
      dirs: d,
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      baseUrl: srv.url,
      env: { LOG: ranLog },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await readFile(ranLog, "utf8")).trim()).toBe("one");
  });
});
