/**
 * Containment under signals through `acai -p`: SIGHUP is handled as SIGTERM,
 * a second Ctrl-C still kills a TERM-trapping hook, an abort during a
 * describe step or while the prompt is read from stdin ends at once, and the
 * session-end budget is honoured as configured. Nothing is left behind.
 *
 * "At once" is not timed (no speed assertion in a test): each case blocks on
 * a `sleep 300` or a stdin that never closes, so a run that waited for them
 * would be killed by startAcai's timeout or vitest's and fail its exit-code
 * check; the survivors check proves the blockers were killed, not outlived.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Markers, pidsWith, survivors, waitFor, waitForIdle } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, CLI_PATH, childEnv, makeAcaiDirs, startAcai } from "../support/run-acai.js";
import {
  escapees,
  installUserHook,
  installUserTool,
  writeUserSettings,
} from "./containment-support.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-containment-sig-");
  // Marker containment and process ids: without the OS sandbox (writeUserSettings).
  await writeUserSettings(dirs, {});
});
afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** A model that asks for one Bash call running `command`, then would answer. */
async function bashTurn(command: string): Promise<FakeOpenAIServer> {
  server = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", input: { command } }] },
    { text: "unreachable" },
  ]);
  return server;
}

/** A session_end hook that records that it ran (after `delay` seconds). */
async function sessionEndRecorder(delay = 0): Promise<string> {
  const file = path.join(dirs.root, "session-end-ran");
  await installUserHook(dirs, {
    name: "recorder",
    events: ["session_end"],
    body: `sleep ${delay}\ntouch ${file}`,
    timeoutMs: 120_000,
  });
  return file;
}

describe("containment under signals", () => {
  it("SIGHUP is handled as SIGTERM: session_end runs, exit 129, no process left", async () => {
    const marker = markers.next();
    const ran = await sessionEndRecorder();
    const fake = await bashTurn(
      `${escapees(marker, "bash", dirs.root)}\nexec -a ${marker}-shell sleep 300`,
    );
    const run = startAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", fake)],
      baseUrl: fake.url,
    });
    expect(await waitFor(() => pidsWith(marker).length === 4, 10_000)).toBe(true);
    run.child.kill("SIGHUP");
    const result = await run.result;
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode).toBe(129);
    expect(existsSync(ran)).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  });

  it("a second SIGINT exits at once and still kills a hook that traps TERM", async () => {
    const marker = markers.next();
    await installUserHook(dirs, {
      name: "stubborn",
      events: ["before_tool"],
      body: `${escapees(marker, "hook", dirs.root)}\ntrap '' TERM\nexec -a ${marker}-stubborn sleep 300`,
    });
    const fake = await bashTurn("echo never");
    const run = startAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", fake)],
      baseUrl: fake.url,
    });
    expect(await waitFor(() => pidsWith(`${marker}-stubborn`).length === 1, 10_000)).toBe(true);
    run.child.kill("SIGINT");
    run.child.kill("SIGINT");
    const result = await run.result;
    expect(result.exitCode).toBe(130);
    expect(await survivors(marker)).toEqual([]);
  });

  it("SIGINT while a hook's describe step hangs ends at once, leaving nothing", async () => {
    const marker = markers.next();
    await installUserHook(dirs, {
      name: "slow-describe",
      events: ["before_tool"],
      describeBody: `${escapees(marker, "describe", dirs.root)}\nexec -a ${marker}-describe sleep 300`,
      body: "",
    });
    await installUserTool(
      dirs,
      "slow_tool",
      "echo hi",
      `exec -a ${marker}-tool-describe sleep 300`,
    );
    const fake = await bashTurn("echo never");
    const run = startAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", fake)],
      baseUrl: fake.url,
    });
    expect(await waitFor(() => pidsWith(marker).length === 5, 10_000)).toBe(true);
    run.child.kill("SIGINT");
    const result = await run.result;
    expect(result.exitCode).toBe(130);
    expect(result.stderr).toContain("interrupted by SIGINT");
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(fake.requests).toHaveLength(0);
    expect(await survivors(marker)).toEqual([]);
  });

  it("SIGTERM while the prompt is read from a stdin that stays open exits 143 at once", async () => {
    const child = spawn(process.execPath, [CLI_PATH, "-p", "--model", "openai:fake-model"], {
      cwd: dirs.cwd,
      env: childEnv({ dirs, args: [], baseUrl: "http://127.0.0.1:9/v1" }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.write("the start of a prompt ");
    const exited = new Promise<number | null>((resolve) =>
      child.once("exit", (code) => resolve(code)),
    );
    // Started and waiting on stdin (a loaded machine can take seconds to get there).
    expect(await waitForIdle(child.pid ?? 0)).toBe(true);
    child.kill("SIGTERM");
    const code = await exited;
    child.stdin.destroy();
    expect(code).toBe(143);
    expect(stderr).toContain("interrupted by SIGTERM");
  });

  it("the session-end budget is honoured as configured (60 s): an 11 s session_end hook finishes after SIGINT", async () => {
    const marker = markers.next();
    await writeUserSettings(dirs, { hookDefaults: { sessionEndBudgetMs: 60_000 } });
    const ran = await sessionEndRecorder(11);
    const fake = await bashTurn(`exec -a ${marker}-shell sleep 300`);
    const run = startAcai({
      dirs,
      args: ["-p", "go", "--yes", ...modelArgs("chat", fake)],
      baseUrl: fake.url,
      timeoutMs: 40_000,
    });
    expect(await waitFor(() => pidsWith(marker).length === 1, 10_000)).toBe(true);
    const sentAt = Date.now();
    run.child.kill("SIGINT");
    const result = await run.result;
    expect(result.exitCode).toBe(130);
    expect(existsSync(ran)).toBe(true);
    expect(Date.now() - sentAt).toBeGreaterThanOrEqual(11_000);
    expect(await survivors(marker)).toEqual([]);
  }, 45_000);
});
