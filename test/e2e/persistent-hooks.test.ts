/**
 * Persistent hooks (hooks.md §6.4) end to end through `acai -p`: in bash,
 * Python and Node (the typed helper) one process serves many events, a crash
 * fails that request and the next one is served by a new process, and after
 * acai exits nothing is left — neither the hook nor the setsid child it
 * started (counted by a marker in their argv).
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Markers, pidsWith, survivors } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { writeUserSettings } from "./containment-support.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";
import {
  installPersistentHook,
  LANGS,
  persistentHookSource,
  readServed,
} from "./persistent-support.js";

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-persistent-");
  // Marker containment and process ids: without the OS sandbox (writeUserSettings).
  await writeUserSettings(dirs, {});
});
afterEach(async () => {
  markers.killAll();
  for (const pid of pidsWith(dirs.root)) process.kill(pid, "SIGKILL");
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

describe.each(LANGS)("a persistent hook in %s", (lang) => {
  it("serves many events from one process, survives its crash, and leaves nothing behind", async () => {
    const marker = markers.next("acai-persistent");
    const log = path.join(dirs.root, "served.log");
    const file = await installPersistentHook(dirs, lang, {
      name: `counter-${lang}`,
      events: ["before_tool", "after_tool"],
      log,
      marker,
    });
    server = await startFakeOpenAI([
      bash("echo one"),
      bash("echo two"),
      bash("echo three"),
      bash("echo crash-now"),
      bash("echo four"),
      bash("echo five"),
      { text: "done" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode).toBe(0);

    const served = await readServed(log);
    // 4 tool calls × (before, after) — the 4th before_tool crashed the hook — then 2 × 2 more.
    expect(served.map((s) => s.event)).toEqual(Array(6).fill(["before_tool", "after_tool"]).flat());
    const first = served.slice(0, 7);
    const second = served.slice(7);
    expect(new Set(first.map((s) => s.pid)).size).toBe(1);
    expect(first.map((s) => s.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(new Set(second.map((s) => s.pid)).size).toBe(1);
    expect(second[0]?.pid).not.toBe(first[0]?.pid);
    expect(second.map((s) => s.n)).toEqual([1, 2, 3, 4, 5]);

    // The crash failed its request (failure policy open: warned, the call went ahead).
    expect(result.stderr).toMatch(new RegExp(`hook "counter-${lang}" failed: exited with 3`));
    expect(toolResultsSent(server.requests[6]?.body).join("\n")).toMatch(/crash-now[\s\S]*four/);

    // Nothing left: the hook's processes, nor the setsid children of both of them.
    expect(await survivors(marker)).toEqual([]);
    expect(await survivors(file)).toEqual([]);
  });
});

describe("a persistent project hook", () => {
  async function installProjectHook(log: string, marker: string): Promise<string> {
    const file = path.join(dirs.cwd, ".acai", "hooks", "counter");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      persistentHookSource("bash", { name: "counter", events: ["before_tool"], log, marker }),
    );
    await chmod(file, 0o755);
    return file;
  }

  it("is not started before the project is trusted; with trust it serves", async () => {
    const marker = markers.next("acai-persistent");
    const log = path.join(dirs.root, "served.log");
    await installProjectHook(log, marker);
    server = await startFakeOpenAI([bash("echo one"), bash("echo two"), { text: "done" }]);
    const args = ["-p", "go", "--yes", ...modelArgs("chat", server)];
    const refused = await runAcai({ dirs, args, baseUrl: server.url });
    expect(refused.exitCode).toBe(4);
    expect(await readServed(log)).toEqual([]);
    expect(pidsWith(marker)).toEqual([]);

    const trusted = await runAcai({
      dirs,
      args: [...args, "--trust-project-hooks"],
      baseUrl: server.url,
    });
    expect(trusted.exitCode).toBe(0);
    const served = await readServed(log);
    expect(served.map((s) => s.n)).toEqual([1, 2]);
    expect(new Set(served.map((s) => s.pid)).size).toBe(1);
    expect(await survivors(marker)).toEqual([]);
  });

  it("acai hooks test sends it one request and stops it", async () => {
    const marker = markers.next("acai-persistent");
    const log = path.join(dirs.root, "served.log");
    const file = await installProjectHook(log, marker);
    const result = await runAcai({
      dirs,
      args: ["hooks", "test", file, "--event", "before_tool"],
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode).toBe(0);
    expect((await readServed(log)).map((s) => s.event)).toEqual(["before_tool"]);
    expect(await survivors(marker)).toEqual([]);
    expect(await survivors(file)).toEqual([]);
  });
});

describe("a persistent hook answering in A3S's dialect", () => {
  it("Continue with modified changes the tool input, the tool result and the prompt, as a spawned hook's would", async () => {
    const meta = JSON.stringify({
      name: "a3s-modifier",
      events: ["before_model", "before_tool", "after_tool"],
      mode: "persistent",
      timeout_ms: 10_000,
    });
    const a3s = (modified: string) =>
      `{\\"id\\":$id,\\"action\\":\\"Continue\\",\\"modified\\":${modified}}`;
    const file = path.join(dirs.acaiHome, "hooks", "a3s-modifier");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(
      file,
      [
        "#!/usr/bin/env bash",
        `if [ "$HOOK_ACTION" = describe ]; then echo '${meta}'; exit 0; fi`,
        "while IFS= read -r line; do",
        '  id=$(jq -r .id <<<"$line")',
        '  event=$(jq -r .event <<<"$line")',
        '  answer="{\\"id\\":$id}"',
        '  case "$event:$line" in',
        `    before_model:*'"prompt":"deploy"'*) answer="${a3s('{\\"prompt\\":\\"deploy to staging only\\"}')}";;`,
        `    before_tool:*'echo typed'*) answer="${a3s('{\\"command\\":\\"echo rewritten-by-hook\\"}')}";;`,
        `    after_tool:*secret-value*) answer="${a3s('{\\"output\\":\\"[redacted]\\"}')}";;`,
        "  esac",
        '  echo "$answer"',
        "done",
        "",
      ].join("\n"),
    );
    await chmod(file, 0o755);
    server = await startFakeOpenAI([
      bash("echo typed"),
      bash("echo secret-value"),
      { text: "done" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "deploy", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/cannot change|ignored/);
    // GenerateStart's modified prompt is what the model is sent.
    expect(JSON.stringify(server.requests[0]?.body?.messages)).toContain("deploy to staging only");
    // PreToolUse's modified args ran in place of the model's.
    expect(toolResultsSent(server.requests[1]?.body).join("\n")).toContain("rewritten-by-hook");
    // PostToolUse's modified output is what the model got.
    const second = toolResultsSent(server.requests[2]?.body).at(-1);
    expect(second).toContain("[redacted]");
    expect(second).not.toContain("secret-value");
  });
});
