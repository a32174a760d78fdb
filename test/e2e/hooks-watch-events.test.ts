/**
 * ConfigChange (config_change) and FileChanged (file_changed, watchPaths)
 * through `acai -p`, with Claude Code-shaped settings hooks. The change
 * happens while the session runs: a session_start hook says the session (and
 * its watchers) started, the test then changes a file, and the scripted model
 * waits in a Bash call until the hook the change raised has written its
 * record (polling, never a fixed delay) before the call that shows the effect.
 */
import { existsSync, writeFileSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import {
  type AcaiDirs,
  type AcaiProcess,
  makeAcaiDirs,
  runAcai,
  startAcai,
} from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-watch-events-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** A command that appends its stdin as one line to `file`, then prints `answer` (if any). */
function recorder(file: string, answer?: unknown): string {
  const print = answer === undefined ? "" : `; echo ${q(JSON.stringify(answer))}`;
  return `cat >> ${q(file)}; echo >> ${q(file)}${print}`;
}

function hook(command: string, matcher?: string) {
  return [{ ...(matcher === undefined ? {} : { matcher }), hooks: [{ type: "command", command }] }];
}

async function payloads(file: string): Promise<Record<string, unknown>[]> {
  if (!existsSync(file)) return [];
  return (await readFile(file, "utf8"))
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Polls (no fixed delay) until `check` holds; fails after `limitMs` saying what it waited for. */
async function waitFor(what: string, check: () => boolean, limitMs = 15_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A Bash call that returns once `file` exists (polling; gives up after ~15 s). */
function waitCall(id: string, file: string) {
  return {
    id,
    name: "Bash",
    input: {
      command: `i=0; while [ ! -s ${q(file)} ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done; cat ${q(file)}`,
    },
  };
}

/**
 * Writes `go` once acai's stderr says `text` (the session's word after it
 * handled a settings change: re-applied or not), so the model's next call
 * comes after it.
 */
function goWhen(run: AcaiProcess, text: string, go: string): void {
  let said = "";
  run.child.stderr?.on("data", (chunk: string) => {
    said += chunk;
    if (said.includes(text) && !existsSync(go)) writeFileSync(go, "go");
  });
}

function start(extra: string[] = []) {
  if (server === undefined) throw new Error("no server");
  return startAcai({
    args: ["-p", "go", "--allowedTools", "Bash", ...extra, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 40_000,
  });
}

describe("FileChanged (file_changed)", { timeout: 60_000 }, () => {
  it("watches the paths a SessionStart answer gives and tells a FileChanged hook, matcher on the base name", async () => {
    const seen = path.join(dirs.root, "changed.jsonl");
    const watched = path.join(dirs.cwd, "watched.txt");
    const other = path.join(dirs.cwd, "other.txt");
    const startAnswer = {
      hookSpecificOutput: { hookEventName: "SessionStart", watchPaths: [watched, other] },
    };
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          SessionStart: hook(`echo ${q(JSON.stringify(startAnswer))}`),
          // What it exports reaches the Bash tool, as a SessionStart hook's does.
          FileChanged: hook(
            `echo 'export WATCHED_BY_HOOK=yes' >> "$CLAUDE_ENV_FILE"; ${recorder(seen)}`,
            "watched\\.txt",
          ),
        },
      }),
    );
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { id: "w", name: "Bash", input: { command: `echo one > ${q(watched)}` } },
          waitCall("wait", seen),
        ],
      },
      {
        toolCalls: [{ id: "env", name: "Bash", input: { command: 'echo "got=$WATCHED_BY_HOOK"' } }],
      },
      { text: "done" },
    ]);
    const result = await start().result;
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    const got = await payloads(seen);
    expect(got.length).toBeGreaterThanOrEqual(1);
    // Creating it is an add (writing into it may follow as a change; their hooks run side by side).
    expect(got.find((p) => p.event === "add")).toMatchObject({
      hook_event_name: "FileChanged",
      file_path: watched,
    });
    expect(got.every((p) => p.event === "add" || p.event === "change")).toBe(true);
    // other.txt is watched too, but the matcher names only watched.txt.
    expect(got.every((p) => p.file_path === watched)).toBe(true);
    // The wait call saw the record: the event came during the session.
    expect(toolResultsSent(server.requests.at(-2)?.body).join("\n")).toContain("FileChanged");
    expect(toolResultsSent(server.requests.at(-1)?.body).join("\n")).toContain("got=yes");
  });

  it("watches a matcher's literal names in the project; watchPaths outside the project are refused with a warning", async () => {
    const seen = path.join(dirs.root, "changed.jsonl");
    const envrc = path.join(dirs.cwd, ".envrc");
    await writeFile(envrc, "export A=1\n");
    const outside = path.join(dirs.root, "outside.txt");
    const startAnswer = {
      hookSpecificOutput: { hookEventName: "SessionStart", watchPaths: [outside] },
    };
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          SessionStart: hook(`echo ${q(JSON.stringify(startAnswer))}`),
          FileChanged: hook(recorder(seen), ".envrc|.env"),
        },
      }),
    );
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { id: "w", name: "Bash", input: { command: `echo 'export A=2' >> .envrc` } },
          waitCall("wait", seen),
        ],
      },
      { text: "done" },
    ]);
    const run = start();
    const result = await run.result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(`asked to watch ${JSON.stringify(outside)}`);
    expect(result.stderr).toContain("outside the project folder");
    const got = await payloads(seen);
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got.every((p) => p.file_path === envrc && p.event === "change")).toBe(true);
  });
});

describe("ConfigChange (config_change)", { timeout: 60_000 }, () => {
  /** The user's settings: a SessionStart hook marking the start, a ConfigChange hook recording (and answering). */
  async function userHooks(seen: string, started: string, answer?: unknown, extra = {}) {
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        ...extra,
        hooks: {
          SessionStart: hook(`touch ${q(started)}`),
          ConfigChange: hook(recorder(seen, answer)),
        },
      }),
    );
  }

  function writeCall() {
    return { id: "write", name: "Write", input: { file_path: "notes.txt", content: "hi\n" } };
  }

  it("a user file's new allow rule applies mid-session", async () => {
    const seen = path.join(dirs.root, "config.jsonl");
    const started = path.join(dirs.root, "started");
    const go = path.join(dirs.root, "go");
    await userHooks(seen, started);
    server = await startFakeOpenAI([
      { toolCalls: [waitCall("wait", go)] },
      { toolCalls: [writeCall()] },
      { text: "done" },
    ]);
    const run = start();
    goWhen(run, "apply to this session from now on", go);
    await waitFor("the session to start", () => existsSync(started));
    const settings = JSON.parse(await readFile(path.join(dirs.acaiHome, "settings.json"), "utf8"));
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ ...settings, permissions: { allow: ["Write(notes.txt)"] } }),
    );
    const result = await run.result;
    expect(result.exitCode, result.stderr).toBe(0);
    const got = await payloads(seen);
    expect(got[0]).toMatchObject({
      hook_event_name: "ConfigChange",
      event: "config_change",
      source: "user_settings",
      file_path: path.join(dirs.acaiHome, "settings.json"),
    });
    expect(result.stderr).toContain("permission rules (allow, ask, deny) apply to this session");
    expect(await readFile(path.join(dirs.cwd, "notes.txt"), "utf8")).toBe("hi\n");
  });

  it("a blocking ConfigChange hook keeps the session's settings", async () => {
    const seen = path.join(dirs.root, "config.jsonl");
    const started = path.join(dirs.root, "started");
    const go = path.join(dirs.root, "go");
    await userHooks(seen, started, { decision: "block", reason: "NO-LIVE-EDITS" });
    server = await startFakeOpenAI([
      { toolCalls: [waitCall("wait", go)] },
      { toolCalls: [writeCall()] },
      { text: "done" },
    ]);
    const run = start();
    goWhen(run, "kept this session's settings", go);
    await waitFor("the session to start", () => existsSync(started));
    const settings = JSON.parse(await readFile(path.join(dirs.acaiHome, "settings.json"), "utf8"));
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ ...settings, permissions: { allow: ["Write(notes.txt)"] } }),
    );
    const result = await run.result;
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("kept this session's settings (NO-LIVE-EDITS)");
    expect(existsSync(path.join(dirs.cwd, "notes.txt"))).toBe(false);
  });

  it("a project settings file changed mid-session adds no allow rule and no hook, keeps its trusted hooks running; the next run asks for trust", async () => {
    const seen = path.join(dirs.root, "config.jsonl");
    const started = path.join(dirs.root, "started");
    const projectRan = path.join(dirs.root, "project-hook.log");
    const addedRan = path.join(dirs.root, "added-hook.log");
    await userHooks(seen, started);
    const projectSettings = path.join(dirs.cwd, ".acai", "settings.json");
    await mkdir(path.dirname(projectSettings), { recursive: true });
    await writeFile(
      projectSettings,
      JSON.stringify({ hooks: { PreToolUse: hook(`echo ran >> ${q(projectRan)}`, "Glob") } }),
    );
    const trusted = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    const go = path.join(dirs.root, "go");
    server = await startFakeOpenAI([
      { toolCalls: [{ id: "first", name: "Glob", input: { pattern: "*" } }] },
      { toolCalls: [waitCall("wait", go)] },
      { toolCalls: [{ id: "again", name: "Glob", input: { pattern: "*" } }, writeCall()] },
      { text: "done" },
    ]);
    const run = start();
    goWhen(run, "part of the project's trusted set", go);
    await waitFor("the session to start", () => existsSync(started));
    await waitFor("the project's hook to run once", () => existsSync(projectRan));
    // What the model would write if a write got through: an allow rule and a hook of its own.
    await writeFile(
      projectSettings,
      JSON.stringify({
        permissions: { allow: ["Write", "Bash"] },
        hooks: {
          PreToolUse: [
            ...hook(`echo ran >> ${q(projectRan)}`, "Glob"),
            ...hook(`echo ran >> ${q(addedRan)}`),
          ],
        },
      }),
    );
    const result = await run.result;
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await payloads(seen))[0]).toMatchObject({
      source: "project_settings",
      file_path: projectSettings,
    });
    expect(result.stderr).toContain("part of the project's trusted set");
    // No allow rule: the Write was denied (nobody to ask in -p).
    expect(existsSync(path.join(dirs.cwd, "notes.txt"))).toBe(false);
    // No hook of the change ran; the trusted file's Glob hook still guards: it ran for both Globs
    // (touching the file cannot disarm it).
    expect(existsSync(addedRan)).toBe(false);
    expect((await readFile(projectRan, "utf8")).trim().split("\n")).toEqual(["ran", "ran"]);
    // The next session refuses the changed, untrusted set.
    server = await startFakeOpenAI([{ text: "never" }]);
    const next = await runAcai({
      args: ["-p", "go", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(next.exitCode).not.toBe(0);
    expect(server.requests.filter((r) => r.api === "chat")).toHaveLength(0);
  });
});
