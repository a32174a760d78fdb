/**
 * The spawn helper (spawn-helper.ts, decision 0041): unsandboxed runs forked
 * by a long-lived helper process instead of acai — output, stdin, exit codes,
 * spawn errors, timeouts and aborts killing the whole group, the fallback to
 * a direct spawn while it is not ready, the helper's death mid-run (the run
 * ends as lost, its group is killed, the next run starts a new helper), and
 * the helper dying with the process that started it (SIGKILL included),
 * taking its children with it — also when the line it writes to acai fails
 * because acai is gone (EPIPE; decision 0056).
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createContainment } from "../../source/process/containment.js";
import { createProcessRunner } from "../../source/process/runner.js";
import { killGroup } from "../../source/process/spawn.js";
import { createSpawnHelper, type SpawnHelper } from "../../source/process/spawn-helper.js";
import { SPAWNER_SCRIPT } from "../../source/process/spawner-script.js";
import type { ProcessRunner, RunOptions } from "../../source/process/types.js";
import { Markers, markedSleep, pidsWith, survivors, waitFor } from "./survivors.js";

const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", SHLVL: "1" };
const markers = new Markers();
const helpers: SpawnHelper[] = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-spawn-helper-"));
});

afterEach(async () => {
  for (const helper of helpers.splice(0)) helper.stop();
  markers.killAll();
  await rm(dir, { recursive: true, force: true });
});

async function ready(options: Parameters<typeof createSpawnHelper>[0] = {}): Promise<{
  helper: SpawnHelper;
  run: ProcessRunner;
}> {
  const helper = createSpawnHelper({ tmpDir: dir, ...options });
  helpers.push(helper);
  expect(await helper.ready()).toBe(true);
  return { helper, run: createProcessRunner({ helper, containment: createContainment() }) };
}

function sh(run: ProcessRunner, script: string, extra: Partial<RunOptions> = {}) {
  return run({ command: "/bin/bash", args: ["-c", script], cwd: dir, env, ...extra });
}

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

describe("a run through the spawn helper", () => {
  it("is forked by the helper, not by acai, and returns output, stdin and exit code", async () => {
    const { helper, run } = await ready();
    const result = await sh(run, "echo out; echo err >&2; cat; echo; echo ppid=$PPID; exit 3", {
      stdin: "in put",
    });
    expect(result).toMatchObject({ exitCode: 3, signal: null, stderr: "err\n" });
    expect(result.stdout).toBe(`out\nin put\nppid=${helper.pid()}\n`);
    expect(helper.pid()).not.toBe(process.pid);
    expect(result.spawnError).toBeUndefined();
  });

  it("gives the child exactly the environment passed plus the run's marker, in the cwd passed", async () => {
    const { run } = await ready();
    const result = await sh(run, "pwd; env | sort");
    const [cwd, ...vars] = result.stdout.trim().split("\n");
    expect(cwd).toBe(dir);
    const names = vars.map((line) => line.split("=")[0]!);
    const bashOwn = ["OLDPWD", "PWD", "SHLVL", "_"];
    expect(
      names.filter((name) => !name.startsWith("ACAI_RUN_") && !bashOwn.includes(name)),
    ).toEqual(["LANG", "PATH"]);
    expect(names.some((name) => name.startsWith("ACAI_RUN_"))).toBe(true);
  });

  it("ends a run at its child's exit when the child's empty output closed before the hand-over", {
    timeout: 20_000,
  }, async () => {
    // A child that exits at once, saying nothing, often has its streams' end read while they
    // wait paused in the helper's pool; the run once waited the whole drain for a "close" that
    // had come already. With a drain of a minute, a run that waits for it fails the test.
    const helper = createSpawnHelper({ tmpDir: dir });
    helpers.push(helper);
    expect(await helper.ready()).toBe(true);
    const run = createProcessRunner({ helper, containment: createContainment(), drainMs: 60_000 });
    for (let i = 0; i < 40; i++) {
      const result = await run({ command: "/bin/true", cwd: dir, env });
      expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
    }
    const said = await run({ command: "/bin/echo", args: ["{}"], cwd: dir, env });
    expect(said).toMatchObject({ exitCode: 0, stdout: "{}\n", stderr: "" });
  });

  it("says plainly why a command cannot start", async () => {
    const { run } = await ready();
    const missing = await run({ command: "acai-no-such-command", cwd: dir, env });
    expect(missing.spawnError).toMatch(/cannot run "acai-no-such-command": no such file/);
    const nowhere = await run({ command: "/bin/true", cwd: join(dir, "gone"), env });
    expect(nowhere.spawnError).toMatch(/working directory ".*gone" does not exist/);
  });

  it("kills the whole group on timeout and on abort", async () => {
    const { run } = await ready();
    const marker = markers.next();
    const timed = await sh(run, `(${markedSleep(marker)}) & ${markedSleep(marker)}`, {
      timeoutMs: 200,
      killGraceMs: 100,
    });
    expect(timed.timedOut).toBe(true);
    expect(await survivors(marker)).toEqual([]);
    const aborting = new AbortController();
    const other = markers.next();
    const pending = sh(run, `(${markedSleep(other)}) & ${markedSleep(other)}`, {
      signal: aborting.signal,
    });
    expect(await waitFor(() => pidsWith(other).length === 2)).toBe(true);
    aborting.abort();
    expect((await pending).aborted).toBe(true);
    expect(await survivors(other)).toEqual([]);
  });

  it("serves runs at the same time (each its own connections)", async () => {
    const { run } = await ready();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => sh(run, `cat; echo " ${i}"`, { stdin: `run` })),
    );
    expect(results.map((result) => result.stdout)).toEqual(
      Array.from({ length: 12 }, (_, i) => `run ${i}\n`),
    );
  });
});

describe("when the helper is not there", () => {
  it("spawns directly while the helper starts, and through it once it is ready", async () => {
    const helper = createSpawnHelper({ tmpDir: dir });
    helpers.push(helper);
    const run = createProcessRunner({ helper });
    const first = await sh(run, "echo $PPID");
    expect(Number(first.stdout)).toBe(process.pid);
    expect(await helper.ready()).toBe(true);
    const later = await sh(run, "echo $PPID");
    expect(Number(later.stdout)).toBe(helper.pid());
  });

  it("spawns directly when no helper may start", async () => {
    const helper = createSpawnHelper({ tmpDir: dir, maxStarts: 0 });
    expect(await helper.ready()).toBe(false);
    const result = await sh(createProcessRunner({ helper }), "echo $PPID");
    expect(Number(result.stdout)).toBe(process.pid);
  });

  it("ends a run as lost when the helper dies, kills its group, and starts a new helper", async () => {
    const { helper, run } = await ready();
    const marker = markers.next();
    const first = helper.pid()!;
    const pending = sh(run, `(${markedSleep(marker)}) & ${markedSleep(marker)}`);
    expect(await waitFor(() => pidsWith(marker).length === 2)).toBe(true);
    process.kill(first, "SIGKILL");
    const result = await pending;
    expect(result.spawnError).toMatch(/acai's spawn helper stopped/);
    expect(await survivors(marker)).toEqual([]);
    expect(await sh(run, "true")).toMatchObject({ exitCode: 0 }); // directly, while a new one starts
    expect(await helper.ready()).toBe(true);
    expect(helper.pid()).not.toBe(first);
    expect((await sh(run, "echo $PPID")).stdout.trim()).toBe(String(helper.pid()));
  });
});

describe("the helper dies with acai", () => {
  const built = resolve("dist/process/spawn-helper.js");
  it.each([
    ["exits", "process.exit(0)"],
    ["is SIGKILLed", "process.kill(process.pid, 'SIGKILL')"],
  ])(
    "when the process that started it %s, taking its running children along",
    async (_how, end) => {
      const marker = markers.next();
      // A small "acai": no containment marker, so only the helper's own end can stop the sleep.
      const script = `
      const { createSpawnHelper } = await import(${JSON.stringify(built)});
      const { createProcessRunner } = await import(${JSON.stringify(resolve("dist/process/runner.js"))});
      const helper = createSpawnHelper({ tmpDir: ${JSON.stringify(dir)} });
      if (!(await helper.ready())) process.exit(7);
      const run = createProcessRunner({ helper });
      const sleep = process.env.SLEEP;
      void run({ command: "/bin/bash", args: ["-c", sleep], cwd: "/", env: { PATH: "/usr/bin:/bin" } });
      setInterval(() => {}, 1000);
      console.log(helper.pid());
      process.stdin.once("data", () => { ${end}; });
    `;
      // The marker goes in the environment: the sleep's command line has it, this script's must not.
      const acai = spawn(process.execPath, ["--input-type=module", "-e", script], {
        stdio: ["pipe", "pipe", "inherit"],
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", SLEEP: markedSleep(marker) },
      });
      const helperPid = await new Promise<number>((done) =>
        acai.stdout.once("data", (chunk: Buffer) => done(Number(chunk.toString()))),
      );
      expect(await waitFor(() => pidsWith(marker).length === 1)).toBe(true);
      const sleeper = pidsWith(marker)[0]!;
      expect(parentOf(sleeper)).toBe(helperPid);
      acai.stdin.write("go\n");
      await new Promise((done) => acai.once("exit", done));
      expect(await survivors(marker, 5000)).toEqual([]);
      expect(await waitFor(() => !alive(helperPid), 5000)).toBe(true);
    },
  );
});

/**
 * acai's end of the helper's protocol, by hand: the helper script started on the host with a
 * socket served here (its spare connections are accepted and held), so a test can do what acai
 * would not — here, stop reading the helper's answers, as when acai has just died.
 */
async function bareHelper(): Promise<{
  pid: number;
  spawn: (command: string, args: string[]) => void;
  nextLine: () => Promise<string>;
  stopReading: () => void;
  close: () => void;
}> {
  const socketPath = join(dir, "s");
  const held: Socket[] = [];
  const server = createServer((conn) => held.push(conn.on("error", () => {})));
  await new Promise<void>((done) => server.listen(socketPath, done));
  const helper = spawn(process.execPath, ["-e", SPAWNER_SCRIPT, socketPath, "host"], {
    stdio: ["pipe", "pipe", "inherit"],
    detached: true,
    env: {},
  });
  helper.stdin.on("error", () => {});
  const lines = createInterface({ input: helper.stdout })[Symbol.asyncIterator]();
  const nextLine = async () => String((await lines.next()).value);
  expect(await nextLine()).toBe('{"ready":true}');
  const write = (message: object) => helper.stdin.write(`${JSON.stringify(message)}\n`);
  write({ op: "hello", secret: randomBytes(16).toString("hex") });
  let id = 0;
  return {
    pid: helper.pid!,
    spawn: (command, args) => {
      const token = randomBytes(16).toString("hex");
      const env = { PATH: "/usr/bin:/bin" };
      write({ op: "spawn", id: ++id, token, command, args, cwd: "/", env, stdin: "none" });
    },
    nextLine,
    stopReading: () => helper.stdout.destroy(),
    close: () => {
      server.close();
      for (const conn of held) conn.destroy();
      killGroup(helper.pid, "SIGKILL");
    },
  };
}

describe("the helper whose answers can no longer be written (acai gone)", () => {
  it("kills its children's groups and exits instead of dying of the EPIPE and leaving them", async () => {
    const marker = markers.next();
    const helper = await bareHelper();
    try {
      helper.spawn("/bin/bash", ["-c", markedSleep(marker)]);
      expect(await helper.nextLine()).toMatch(/"started":\d+/);
      expect(pidsWith(marker)).toHaveLength(1);
      // As when acai has just died: the next line the helper writes (here the second run's
      // `started`) fails with EPIPE — before the fix that killed the helper and left the sleep.
      helper.stopReading();
      helper.spawn("/bin/true", []);
      expect(await survivors(marker)).toEqual([]);
      expect(await waitFor(() => !alive(helper.pid), 5000)).toBe(true);
    } finally {
      helper.close();
    }
  });
});

function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== undefined && state !== "Z";
  } catch {
    return false;
  }
}

describe("a helper that dies after forking, before acai read the pid", () => {
  it("leaves nothing of that run: its marked processes are swept", async () => {
    const marker = markers.next();
    // Stands in for the race: the child is forked with the run's environment, then the
    // helper is gone before its `started` line was read, so the run ends as a spawn error.
    const lostHelper: SpawnHelper = {
      start: (target) => {
        spawn("/bin/bash", ["-c", `exec -a ${marker} sleep 300`], {
          env: target.env,
          detached: true,
          stdio: "ignore",
        }).unref();
        return waitFor(() => pidsWith(marker).length === 1).then(() => ({
          spawnError: "acai's spawn helper stopped (its processes were killed with it)",
        }));
      },
      ready: async () => true,
      pid: () => undefined,
      stop: () => {},
    };
    const run = createProcessRunner({ helper: lostHelper, containment: createContainment() });
    const result = await sh(run, "true");
    expect(result.spawnError).toMatch(/spawn helper stopped/);
    expect(await survivors(marker)).toEqual([]);
  });
});
