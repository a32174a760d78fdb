/**
 * The runner and the long-lived starter with `sandbox` (a hand-written
 * SandboxLaunch, as the policy side builds them): through the policy's
 * spawner — the Python one and the Node one alike (decision 0059) — and
 * through one bwrap per process — output, stdin, exit codes and signals of
 * the command, timeouts, aborts, caps, EPIPE, the spawner's crash and
 * restart, what escapes (setsid, an empty environment) swept or dying with
 * the namespace, and a Python spawner that cannot start in its sandbox
 * replaced by the Node one.
 */
import { existsSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { containmentInForce } from "../../source/process/bwrap.js";
import { createContainment } from "../../source/process/containment.js";
import { createProcessStarter, type LongLivedExit } from "../../source/process/long-lived.js";
import { createProcessRunner } from "../../source/process/runner.js";
import {
  createSandboxLauncher,
  type SandboxLauncher,
  type SandboxLauncherOptions,
} from "../../source/process/sandbox-launch.js";
import type {
  ProcessRunner,
  RunOptions,
  SandboxLaunch,
  SpawnerKind,
} from "../../source/process/types.js";
import { PYTHON } from "./spawn-helper-kinds.js";
import { Markers, pidsWith, survivors, waitFor } from "./survivors.js";

// SHLVL: bash given a socket as stdin (libuv's pipes are socketpairs) reads ~/.bashrc at level 1.
const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", SHLVL: "1" };
const available = containmentInForce().kind === "namespace";
/** The spawner kinds run alike (the Python one where /usr/bin/python3 is installed). */
const KINDS: readonly SpawnerKind[] = existsSync(PYTHON) ? ["python", "node"] : ["node"];
const markers = new Markers();
let dir: string;
const launchers: SandboxLauncher[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-sandbox-runner-"));
});

afterEach(async () => {
  for (const launcher of launchers.splice(0)) launcher.stopAll();
  markers.killAll();
  await rm(dir, { recursive: true, force: true });
});

/** Pids whose argv[0] is `marker` (not the shells whose script mentions it). */
function named(marker: string): number[] {
  return pidsWith(marker).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").startsWith(`${marker}\0`);
    } catch {
      return false;
    }
  });
}

let helper: SpawnerKind = "node";

function policy(key = "test", extra: readonly string[] = []): SandboxLaunch {
  return {
    key,
    name: key,
    bwrapArgs: ["--ro-bind", "/", "/", "--dev", "/dev", "--bind", dir, dir, ...extra],
    helper,
  };
}

/** What runs the spawner a run was forked by (its parent's argv[0]). */
async function spawnerOf(run: ProcessRunner, launch = policy()): Promise<string> {
  const result = await sh(run, "tr '\\0' '\\n' < /proc/$PPID/cmdline | head -1", {
    sandbox: launch,
  });
  return result.stdout.trim();
}

function setup(options: SandboxLauncherOptions = {}): {
  run: ProcessRunner;
  launcher: SandboxLauncher;
} {
  const launcher = createSandboxLauncher({ notify: () => {}, ...options });
  launchers.push(launcher);
  const containment = createContainment();
  return { run: createProcessRunner({ containment, sandbox: launcher }), launcher };
}

function sh(run: ProcessRunner, script: string, extra: Partial<RunOptions> = {}) {
  return run({
    command: "/bin/bash",
    args: ["-c", script],
    cwd: dir,
    env,
    sandbox: policy(),
    ...extra,
  });
}

describe.skipIf(!available).each([
  ["through the Python spawner", true, "python"],
  ["through the Node spawner", true, "node"],
  ["one bwrap per process", false, "node"],
] as const)("a sandboxed run %s", (_label, useSpawner, kind) => {
  const make = () => setup({ useSpawner }).run;
  beforeEach(() => {
    helper = kind;
  });

  it("returns the command's stdout, stderr, exit code, and reads its stdin", async () => {
    const result = await sh(make(), "echo out; echo err >&2; cat; exit 3", { stdin: "in put" });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: "out\nin put",
      stderr: "err\n",
    });
    expect(result.spawnError).toBeUndefined();
  });

  it("runs in a PID namespace of its own, writes only where the policy lets it", async () => {
    const result = await sh(
      make(),
      `readlink /proc/self/ns/pid; touch ${dir}/yes; touch /usr/acai-no 2>/dev/null || echo refused`,
    );
    const [ns, refused] = result.stdout.trim().split("\n");
    expect(ns).toMatch(/^pid:\[\d+\]$/);
    expect(ns).not.toBe(readlinkSync("/proc/self/ns/pid"));
    expect(refused).toBe("refused");
  });

  it("kills the whole tree on timeout and says so", async () => {
    const marker = markers.next();
    const result = await sh(make(), `(exec -a ${marker} sleep 300) & exec -a ${marker} sleep 300`, {
      timeoutMs: 300,
      killGraceMs: 100,
    });
    expect(result.timedOut).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  });

  it("kills the whole tree on abort", async () => {
    const marker = markers.next();
    const controller = new AbortController();
    const running = sh(make(), `(exec -a ${marker} sleep 300) & touch ${dir}/up; wait`, {
      signal: controller.signal,
    });
    expect(await waitFor(() => pidsWith(marker).length > 0, 10_000)).toBe(true);
    controller.abort();
    const result = await running;
    expect(result.aborted).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  });

  it("keeps big output whole, and caps it where asked", async () => {
    const run = make();
    const whole = await sh(run, "head -c 3000000 /dev/zero | tr '\\0' x", {
      maxOutputBytes: 4_000_000,
    });
    expect(whole.stdout.length).toBe(3_000_000);
    const capped = await sh(run, "head -c 3000000 /dev/zero | tr '\\0' x", {
      maxOutputBytes: 1000,
    });
    expect(capped.stdout.length).toBe(1000);
    expect(capped.truncated.stdout).toBe(true);
  });

  it("survives a child that closes stdin at once (EPIPE)", async () => {
    const result = await sh(make(), "exec 0<&-; echo done", { stdin: "x".repeat(5_000_000) });
    expect(result).toMatchObject({ exitCode: 0, stdout: "done\n" });
  });
});

describe.skipIf(!available).each(KINDS)("the %s spawner", (kind) => {
  beforeEach(() => {
    helper = kind;
  });

  it("forks the runs itself", async () => {
    const parent = await spawnerOf(setup().run);
    expect(parent).toBe(kind === "python" ? PYTHON : process.execPath);
  });

  it("reports the command's own signal, not bwrap's exit", async () => {
    const result = await sh(setup().run, "kill -TERM $$");
    expect(result).toMatchObject({ exitCode: null, signal: "SIGTERM" });
  });

  it("says plainly when the command does not exist", async () => {
    const result = await sh(setup().run, "", { command: "acai-no-such-command", args: [] });
    expect(result.spawnError).toMatch(/acai-no-such-command.*no such file/);
  });

  it("fails the runs it had when it dies, and the next run starts a new one", async () => {
    const { run } = setup();
    const lost = await sh(run, "kill -KILL $PPID; sleep 5");
    expect(lost.spawnError).toMatch(/sandbox spawner of policy "test" stopped/);
    const next = await sh(run, "echo again");
    expect(next).toMatchObject({ exitCode: 0, stdout: "again\n" });
    expect(next.spawnError).toBeUndefined();
  });

  it("kills what escaped its runs — setsid, an empty environment — when it stops", async () => {
    const { run, launcher } = setup();
    const marker = markers.next();
    const result = await sh(
      run,
      `setsid env -i /bin/bash -c 'exec -a ${marker} sleep 300' </dev/null >/dev/null 2>&1 & sleep 0.2`,
    );
    expect(result.exitCode).toBe(0);
    expect(pidsWith(marker)).toHaveLength(1); // it did escape the run
    launcher.stopAll();
    expect(await survivors(marker)).toEqual([]);
  });

  it("sweeps what a stopped run left in its namespace, marker dropped, and keeps a running run's", async () => {
    const { run } = setup();
    const kept = markers.next();
    const orphan = markers.next();
    const escapee = (m: string) =>
      `( setsid env -i /bin/bash -c 'exec -a ${m} sleep 300' </dev/null >/dev/null 2>&1 & )`;
    const controller = new AbortController();
    // A run still going: a child in its own session (left alone) and an orphan that left it (swept).
    const running = sh(run, `(exec -a ${kept} sleep 300) & ${escapee(orphan)}; wait`, {
      signal: controller.signal,
    });
    const up = () => named(kept).length === 1 && named(orphan).length === 1;
    expect(await waitFor(up, 10_000)).toBe(true);
    const other = markers.next();
    const result = await sh(run, `${escapee(other)}; sleep 0.2`, { sweepOnExit: true });
    expect(result.exitCode).toBe(0);
    expect(await waitFor(() => named(other).length + named(orphan).length === 0)).toBe(true);
    expect(named(kept)).toHaveLength(1);
    controller.abort();
    await running;
    expect(await survivors(kept)).toEqual([]);
  });

  it("falls back to one bwrap per process when it cannot start, and says so once", async () => {
    const said: string[] = [];
    const { run, launcher } = setup({
      execPath: "/nonexistent/node",
      python: "/nonexistent/python3",
      notify: (l) => said.push(l),
    });
    const first = await sh(run, "echo one");
    const second = await sh(run, "echo two; exit 4");
    expect(first).toMatchObject({ exitCode: 0, stdout: "one\n" });
    expect(second).toMatchObject({ exitCode: 4, stdout: "two\n" });
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/sandbox helper for policy "test" could not start.*own bwrap/);
    expect(launcher.mode("test")).toBe("per-process");
  });

  it("refuses to run outside the sandbox when bwrap is missing", async () => {
    const result = await sh(setup({ bwrap: () => undefined }).run, "echo never");
    expect(result.stdout).toBe("");
    expect(result.spawnError).toMatch(/in the sandbox \(policy "test"\): bwrap is not on PATH/);
  });
});

describe.skipIf(!available || !KINDS.includes("python"))(
  "a Python spawner whose python is missing in its sandbox",
  () => {
    beforeEach(() => {
      helper = "python";
    });

    it("is replaced by the Node one, said once as a debug line, and not tried again", async () => {
      const debug: string[] = [];
      const said: string[] = [];
      const { run, launcher } = setup({ debug: (l) => debug.push(l), notify: (l) => said.push(l) });
      // The policy hides the interpreter (denyRead of a file: /dev/null over it).
      const hidden = policy("test", ["--ro-bind", "/dev/null", realpathSync(PYTHON)]);
      expect(await spawnerOf(run, hidden)).toBe(process.execPath);
      const result = await sh(run, "echo through; exit 5", { sandbox: hidden });
      expect(result).toMatchObject({ exitCode: 5, stdout: "through\n" });
      expect(launcher.mode("test")).toBe("spawner");
      // Killed and started again: Node at once, Python not tried a second time.
      const lost = await sh(run, "kill -KILL $PPID; sleep 5", { sandbox: hidden });
      expect(lost.spawnError).toMatch(/sandbox spawner of policy "test" stopped/);
      expect(await spawnerOf(run, hidden)).toBe(process.execPath);
      expect(debug).toHaveLength(1);
      expect(debug[0]).toMatch(
        /policy "test": the Python spawner \(\/usr\/bin\/python3\) did not start .*using the Node one/,
      );
      expect(said).toEqual([]);
    });
  },
);

describe.skipIf(!available).each(KINDS)("a policy's %s spawner started ahead (prepare)", (kind) => {
  beforeEach(() => {
    helper = kind;
  });

  /** bwrap started for this test's policy (its arguments name the test's folder), not the child it forks. */
  const bwraps = () => {
    const all = pidsWith(dir).filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")[0]?.endsWith("bwrap");
      } catch {
        return false;
      }
    });
    const parentOf = (pid: number) =>
      Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[1]);
    return all.filter((pid) => {
      try {
        return !all.includes(parentOf(pid));
      } catch {
        return false;
      }
    });
  };

  it("starts before any run, and the first run goes through it rather than a second one", async () => {
    const { run, launcher } = setup();
    expect(launcher.mode("test")).toBe("not-started");
    launcher.prepare(policy());
    expect(launcher.mode("test")).toBe("spawner");
    expect(await waitFor(() => bwraps().length === 1)).toBe(true);
    const result = await sh(run, "echo through");
    expect(result).toMatchObject({ exitCode: 0, stdout: "through\n" });
    expect(bwraps()).toHaveLength(1);
    launcher.prepare(policy()); // a second prepare starts nothing
    expect(bwraps()).toHaveLength(1);
  });

  it("that cannot start is tried once: the first run falls back to one bwrap and says so once", async () => {
    const starts = join(dir, "starts");
    const fake = (name: string) => {
      writeFileSync(join(dir, name), `#!/bin/sh\necho ${name} >> ${starts}\nexit 1\n`, {
        mode: 0o755,
      });
      return join(dir, name);
    };
    const said: string[] = [];
    const { run, launcher } = setup({
      execPath: fake("node"),
      python: fake("python"),
      notify: (l) => said.push(l),
    });
    launcher.prepare(policy());
    const first = await sh(run, "echo one");
    expect(first).toMatchObject({ exitCode: 0, stdout: "one\n" });
    // The Python spawner, then the Node one: each once.
    expect(readFileSync(starts, "utf8")).toBe(kind === "python" ? "python\nnode\n" : "node\n");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/sandbox helper for policy "test" could not start/);
    expect(launcher.mode("test")).toBe("per-process");
  });

  it("starts nothing where every process gets its own bwrap", async () => {
    const { launcher } = setup({ useSpawner: false });
    launcher.prepare(policy());
    expect(launcher.mode("test")).toBe("per-process");
    expect(bwraps()).toEqual([]);
  });
});

describe.skipIf(!available).each(KINDS)("a sandboxed long-lived process (%s spawner)", (kind) => {
  beforeEach(() => {
    helper = kind;
  });

  it("keeps its stdin open, reads its lines, and is gone after kill", async () => {
    const launcher = createSandboxLauncher({ notify: () => {} });
    launchers.push(launcher);
    const start = createProcessStarter(createContainment(), launcher);
    const marker = markers.next();
    const lines: string[] = [];
    let exit: LongLivedExit | undefined;
    const child = await start({
      command: "/bin/bash",
      args: ["-c", `(exec -a ${marker} sleep 300) & while read l; do echo "got $l"; done`],
      cwd: dir,
      env,
      sandbox: policy(),
      maxLineBytes: 1000,
      onLine: (line) => lines.push(line),
      onLineTooLong: () => {},
      onExit: (e) => {
        exit = e;
      },
    });
    child.write("a\nb\n");
    expect(await waitFor(() => lines.length >= 2, 10_000)).toBe(true);
    expect(lines).toEqual(["got a", "got b"]);
    child.kill();
    expect(await waitFor(() => exit !== undefined, 10_000)).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  });
});
