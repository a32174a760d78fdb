/**
 * The spawn helper (spawn-helper.ts, decisions 0041 and 0056): unsandboxed
 * runs forked by a long-lived helper process instead of acai — each test run
 * against both helpers, the Python one (`posix_spawn`) and the Node one:
 * output, stdin (large ones too), exit codes and signals, spawn errors, the
 * PATH lookup, the child's signals and session, timeouts and aborts killing
 * the whole group, the fallback to a direct spawn while it is not ready, the
 * helper's death mid-run (the run ends as lost, its group is killed, the next
 * run starts a new helper), and the fallback from Python to Node. Its death
 * with acai: spawn-helper-death.test.ts.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createContainment } from "../../source/process/containment.js";
import { createProcessRunner } from "../../source/process/runner.js";
import { createSpawnHelper, type SpawnHelper } from "../../source/process/spawn-helper.js";
import type { ProcessRunner, RunOptions } from "../../source/process/types.js";
import { type HelperKind, KINDS, PYTHON } from "./spawn-helper-kinds.js";
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

async function readyHelper(kind: HelperKind): Promise<{ helper: SpawnHelper; run: ProcessRunner }> {
  const helper = createSpawnHelper({ tmpDir: dir, ...kind.options });
  helpers.push(helper);
  expect(await helper.ready()).toBe(true);
  expect(helper.kind()).toBe(kind.name);
  return { helper, run: createProcessRunner({ helper, containment: createContainment() }) };
}

function sh(run: ProcessRunner, script: string, extra: Partial<RunOptions> = {}) {
  return run({ command: "/bin/bash", args: ["-c", script], cwd: dir, env, ...extra });
}

describe.each(KINDS)("a run through the $name spawn helper", (kind) => {
  const ready = () => readyHelper(kind);
  it.skipIf(kind.missing !== undefined)(
    "is forked by the helper, not by acai, and returns output, stdin and exit code",
    async () => {
      const { helper, run } = await ready();
      const result = await sh(run, "echo out; echo err >&2; cat; echo; echo ppid=$PPID; exit 3", {
        stdin: "in put",
      });
      expect(result).toMatchObject({ exitCode: 3, signal: null, stderr: "err\n" });
      expect(result.stdout).toBe(`out\nin put\nppid=${helper.pid()}\n`);
      expect(helper.pid()).not.toBe(process.pid);
      expect(result.spawnError).toBeUndefined();
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "gives the child exactly the environment passed plus the run's marker, in the cwd passed",
    async () => {
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
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "ends a run at its child's exit when the child's empty output closed before the hand-over",
    { timeout: 20_000 },
    async () => {
      // A child that exits at once, saying nothing, often has its streams' end read while they
      // wait paused in the helper's pool; the run once waited the whole drain for a "close" that
      // had come already. With a drain of a minute, a run that waits for it fails the test.
      const helper = createSpawnHelper({ tmpDir: dir, ...kind.options });
      helpers.push(helper);
      expect(await helper.ready()).toBe(true);
      expect(helper.kind()).toBe(kind.name);
      const run = createProcessRunner({
        helper,
        containment: createContainment(),
        drainMs: 60_000,
      });
      for (let i = 0; i < 40; i++) {
        const result = await run({ command: "/bin/true", cwd: dir, env });
        expect(result).toMatchObject({ exitCode: 0, stdout: "", stderr: "" });
      }
      const said = await run({ command: "/bin/echo", args: ["{}"], cwd: dir, env });
      expect(said).toMatchObject({ exitCode: 0, stdout: "{}\n", stderr: "" });
    },
  );

  it.skipIf(kind.missing !== undefined)("says plainly why a command cannot start", async () => {
    const { run } = await ready();
    const missing = await run({ command: "acai-no-such-command", cwd: dir, env });
    expect(missing.spawnError).toMatch(/cannot run "acai-no-such-command": no such file/);
    const nowhere = await run({ command: "/bin/true", cwd: join(dir, "gone"), env });
    expect(nowhere.spawnError).toMatch(/working directory ".*gone" does not exist/);
    // Its answer names the command: quotes, backslashes, control characters and UTF-8 in it
    // still make one JSON line (the Python helper writes its own JSON).
    const odd = 'acai-"no"\\such\n\t\u0001-é-😀';
    const strange = await run({ command: odd, cwd: dir, env });
    expect(strange.spawnError).toBe(
      `cannot run "${odd}": no such file or executable (check the path or PATH)`,
    );
    expect(await run({ command: "/bin/true", cwd: dir, env })).toMatchObject({ exitCode: 0 });
  });

  it.skipIf(kind.missing !== undefined)(
    "kills the whole group on timeout and on abort",
    async () => {
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
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "serves runs at the same time (each its own connections)",
    async () => {
      const { run } = await ready();
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) => sh(run, `cat; echo " ${i}"`, { stdin: `run` })),
      );
      expect(results.map((result) => result.stdout)).toEqual(
        Array.from({ length: 12 }, (_, i) => `run ${i}\n`),
      );
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "writes a large stdin and reports a signal's death by name",
    async () => {
      const { run } = await ready();
      const big = "x".repeat(300_000);
      const counted = await sh(run, "wc -c", { stdin: big });
      expect(counted).toMatchObject({ exitCode: 0, stdout: "300000\n" });
      const killed = await sh(run, "kill -TERM $$");
      expect(killed).toMatchObject({ exitCode: null, signal: "SIGTERM" });
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "looks the command up on the PATH it was given, and runs a file without #! by /bin/sh",
    async () => {
      const { run } = await ready();
      const bin = join(dir, "bin");
      await mkdir(bin);
      await writeFile(join(bin, "acai-greet"), "echo hello from $0\n", { mode: 0o755 });
      const found = await run({
        command: "acai-greet",
        cwd: dir,
        env: { PATH: `${bin}:/usr/bin:/bin` },
      });
      expect(found).toMatchObject({
        exitCode: 0,
        stdout: `hello from ${join(bin, "acai-greet")}\n`,
      });
      const notOnPath = await run({ command: "acai-greet", cwd: dir, env });
      expect(notOnPath.spawnError).toMatch(/no such file or executable/);
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "passes over PATH folders without the command and a file it may not run, as Node does",
    async () => {
      const { run } = await ready();
      const [empty, locked, bin] = [join(dir, "empty"), join(dir, "locked"), join(dir, "bin")];
      for (const folder of [empty, locked, bin]) await mkdir(folder);
      await writeFile(join(locked, "acai-greet"), "echo not me\n", { mode: 0o644 });
      await writeFile(join(bin, "acai-greet"), "echo hello from $0\n", { mode: 0o755 });
      // A missing folder (ENOENT), a file where a folder should be (ENOTDIR), an empty folder.
      const path = [join(dir, "missing"), join(locked, "acai-greet"), empty, locked, bin];
      const found = await run({
        command: "acai-greet",
        cwd: dir,
        env: { PATH: [...path, "/usr/bin", "/bin"].join(":") },
      });
      expect(found).toMatchObject({
        exitCode: 0,
        stdout: `hello from ${join(bin, "acai-greet")}\n`,
      });
      // Found only where it may not be run: the error is EACCES, as Node's own lookup says.
      const onlyLocked = await run({
        command: "acai-greet",
        cwd: dir,
        env: { PATH: [empty, locked].join(":") },
      });
      expect(onlyLocked.spawnError).toMatch(/EACCES|permission/i);
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "starts the child with every signal at its default and none blocked, in a session of its own",
    async () => {
      const { run } = await ready();
      // exec: grep's signals are the ones bash was started with (bash blocks some while it waits).
      const script =
        "echo $$; cut -d' ' -f6 /proc/$$/stat; exec grep -E '^Sig(Blk|Ign)' /proc/self/status";
      const result = await sh(run, script);
      const [pid, session, blocked, ignored] = result.stdout.trim().split("\n");
      expect(session).toBe(pid);
      expect(blocked).toBe("SigBlk:\t0000000000000000");
      // glibc's posix_spawn leaves its own two internal signals (32, 33: thread cancellation
      // and setxid, never sent to a program by acai) ignored in the child; every other is default.
      const glibcInternal = (1n << 31n) | (1n << 32n);
      expect(BigInt(`0x${ignored!.split("\t")[1]}`) & ~glibcInternal).toBe(0n);
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "refuses an argument holding a NUL byte, naming the command",
    async () => {
      const { run } = await ready();
      const result = await run({ command: "/bin/echo", args: ["a\0b"], cwd: dir, env });
      expect(result.spawnError).toMatch(/cannot run "\/bin\/echo"/);
    },
  );
});

describe.each(KINDS)("when the $name helper is not there", (kind) => {
  const ready = () => readyHelper(kind);
  it.skipIf(kind.missing !== undefined)(
    "spawns directly while the helper starts, and through it once it is ready",
    async () => {
      const helper = createSpawnHelper({ tmpDir: dir, ...kind.options });
      helpers.push(helper);
      const run = createProcessRunner({ helper });
      const first = await sh(run, "echo $PPID");
      expect(Number(first.stdout)).toBe(process.pid);
      expect(await helper.ready()).toBe(true);
      const later = await sh(run, "echo $PPID");
      expect(Number(later.stdout)).toBe(helper.pid());
    },
  );

  it.skipIf(kind.missing !== undefined)("spawns directly when no helper may start", async () => {
    const helper = createSpawnHelper({ tmpDir: dir, maxStarts: 0, ...kind.options });
    expect(await helper.ready()).toBe(false);
    const result = await sh(createProcessRunner({ helper }), "echo $PPID");
    expect(Number(result.stdout)).toBe(process.pid);
  });

  it.skipIf(kind.missing !== undefined)(
    "ends a run as lost when the helper dies, kills its group, and starts a new helper",
    async () => {
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
    },
  );
});

describe("which helper", () => {
  it.skipIf(KINDS[0]!.missing !== undefined)(
    "is the Python one where the system's Python runs",
    async () => {
      const helper = createSpawnHelper({ tmpDir: dir });
      helpers.push(helper);
      expect(await helper.ready()).toBe(true);
      expect(helper.kind()).toBe("python");
      expect(readFileSync(`/proc/${helper.pid()}/cmdline`, "utf8").split("\0")[0]).toBe(PYTHON);
    },
  );

  it("is the Node one, with one debug line, when the Python one cannot start", async () => {
    const said: string[] = [];
    const helper = createSpawnHelper({
      tmpDir: dir,
      python: join(dir, "no-such-python"),
      debug: (line) => said.push(line),
    });
    helpers.push(helper);
    expect(await helper.ready()).toBe(true);
    expect(helper.kind()).toBe("node");
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(
      /the Python helper \(.*no-such-python\) did not start .*using the Node one/,
    );
    const result = await sh(createProcessRunner({ helper }), "echo $PPID");
    expect(Number(result.stdout)).toBe(helper.pid());
  });
});
