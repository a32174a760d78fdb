/**
 * Containment by PID namespace (issue 19), end to end: what escapes the
 * marker — children with an empty environment, after setsid and double
 * forks — still dies with acai.
 *
 * - a plugin's children spawned with an empty environment (spawn, exec) and
 *   their setsid escapees, through `acai -p`: none is left after acai exits,
 *   and none after acai is SIGKILLed while the plugin waits (the sync forms:
 *   test/hooks/run/plugins/children.test.ts);
 * - sandboxed runs of the process runner in a Node process standing in for
 *   acai, through the Python spawner and the Node one (a hook's `setsid env -i sleep &`, a Python daemon: fork, setsid,
 *   fork, execve with an empty environment): none is left after that process
 *   is SIGKILLed.
 *
 * Processes are counted by a unique marker in their ARGUMENTS (/proc/<pid>/
 * cmdline), never their environment; whatever a failed test leaves is killed
 * by pid in teardown.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { containmentInForce } from "../../source/process/bwrap.js";
import { Markers, pidsWith, survivors, waitFor } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai, startAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

const available = containmentInForce().kind === "namespace";
const markers = new Markers();
const KINDS = ["spawn", "exec"];
let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;

afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/**
 * A plugin whose before_tool handler starts two children with an empty
 * environment (spawn, exec), each starting an escapee (setsid, empty
 * environment again) and waiting on it; the handler waits (bounded) until
 * each has started, then `waitMs` more.
 */
function childPlugin(marker: string, started: string, waitMs: number): string {
  const escapee = (kind: string) =>
    `setsid env -i /bin/bash -c 'touch ${started}-${kind}; exec -a ${marker}-${kind} sleep 300' </dev/null >/dev/null 2>&1 & wait`;
  return `
import { spawn, exec } from "node:child_process";
import { existsSync } from "node:fs";
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export function register(api) {
  api.on("before_tool", async () => {
    spawn("/bin/bash", ["-c", ${JSON.stringify(escapee("spawn"))}], { env: {}, stdio: "ignore" });
    exec(${JSON.stringify(escapee("exec"))}, { env: {} });
    for (let i = 0; i < 1000; i++) {
      if (${JSON.stringify(KINDS)}.every((kind) => existsSync(${JSON.stringify(started)} + "-" + kind))) break;
      await pause(20);
    }
    await pause(${waitMs});
  }, { matcher: { tool: "Bash" }, timeoutMs: 120000 });
}
`;
}

async function withPlugin(marker: string, waitMs: number): Promise<string> {
  dirs = await makeAcaiDirs("acai-ns-plugin-");
  const started = path.join(dirs.root, "started");
  const file = path.join(dirs.acaiHome, "plugins", "children.mjs");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, childPlugin(marker, started, waitMs));
  server = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
    { text: "finished" },
  ]);
  return started;
}

describe.skipIf(!available)("PID-namespace containment through acai -p", () => {
  it("a plugin's children with an empty environment are gone when acai exits", {
    timeout: 90_000,
  }, async () => {
    const marker = markers.next("acai-ns-plugin");
    const started = await withPlugin(marker, 300);
    const d = dirs!;
    const result = await runAcai({
      dirs: d,
      args: ["-p", "go", "--yes", ...modelArgs("chat", server!)],
      baseUrl: server!.url,
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    for (const kind of KINDS) expect(existsSync(`${started}-${kind}`), kind).toBe(true);
    expect(await survivors(marker, 5000)).toEqual([]);
  });

  it("a plugin's children with an empty environment are gone when acai is SIGKILLed", {
    timeout: 90_000,
  }, async () => {
    const marker = markers.next("acai-ns-plugin-kill");
    const started = await withPlugin(marker, 60_000);
    const acai = startAcai({
      dirs: dirs!,
      args: ["-p", "go", "--yes", ...modelArgs("chat", server!)],
      baseUrl: server!.url,
      timeoutMs: 60_000,
    });
    const all = () => KINDS.every((kind) => existsSync(`${started}-${kind}`));
    expect(await waitFor(all, 30_000)).toBe(true);
    expect(pidsWith(marker).length).toBeGreaterThanOrEqual(KINDS.length); // they run (with their launchers)
    acai.child.kill("SIGKILL");
    await acai.result;
    expect(await survivors(marker, 5000)).toEqual([]);
  });
});

/** A Node process standing in for acai: runs `script` sandboxed with the built runner, says "up", waits. */
const PARENT = `
import { runProcess } from ${JSON.stringify(path.join(REPO_ROOT, "dist", "process", "runner.js"))};
const [command, ...args] = JSON.parse(process.env.RUN_COMMAND);
const dir = process.argv[1];
const sandbox = { key: "t", name: "test", bwrapArgs: ["--ro-bind", "/", "/", "--dev", "/dev", "--bind", dir, dir], helper: process.env.RUN_HELPER };
const result = await runProcess({ command, args, cwd: dir, env: { PATH: "/usr/bin:/bin", SHLVL: "1" }, sandbox });
process.stdout.write("up " + result.exitCode + "\\n");
setInterval(() => {}, 1000);
`;

const PYTHON_DAEMON = `
import os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(300)", sys.argv[1]], {})
    os._exit(0)
`;

/** The sandbox's spawner kinds (decision 0059), run alike. */
const SPAWNERS = existsSync("/usr/bin/python3") ? ["python", "node"] : ["node"];

describe.skipIf(!available).each(SPAWNERS)(
  "PID-namespace containment of sandboxed runs (%s spawner)",
  (helper) => {
    it.each([
      [
        "a hook's setsid env -i sleep &",
        (m: string) => [
          "/bin/bash",
          "-c",
          `setsid env -i /bin/bash -c 'exec -a ${m} sleep 300' </dev/null >/dev/null 2>&1 & sleep 0.2`,
        ],
      ],
      [
        "a Python daemon (fork, setsid, fork, execve with {})",
        (m: string) => ["/usr/bin/python3", "-c", PYTHON_DAEMON, m],
      ],
    ])(
      "%s leaves nothing after its acai is SIGKILLed",
      async (_label, command) => {
        dirs = await makeAcaiDirs("acai-ns-runner-");
        const marker = markers.next("acai-ns-run");
        const parent = spawn(process.execPath, ["--input-type=module", "-e", PARENT, dirs.root], {
          // The marker goes in the environment: only the escapee's arguments carry it.
          env: { ...process.env, RUN_COMMAND: JSON.stringify(command(marker)), RUN_HELPER: helper },
          stdio: ["ignore", "pipe", "inherit"],
        });
        let out = "";
        parent.stdout.setEncoding("utf8").on("data", (chunk: string) => (out += chunk));
        const closed = new Promise((resolve) => parent.on("close", resolve));
        expect(await waitFor(() => out.includes("up"), 30_000)).toBe(true);
        expect(out).toContain("up 0");
        // It escaped its run (a bound for a loaded machine: a CI run once did not see it within 5 s).
        expect(await waitFor(() => pidsWith(marker).length === 1, 15_000)).toBe(true);
        parent.kill("SIGKILL");
        await closed;
        expect(await survivors(marker, 5000)).toEqual([]);
      },
      60_000,
    );
  },
);
