import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createContainment } from "../../source/process/containment.js";
import { newMarkerName } from "../../source/process/marker.js";
import { createProcessRunner } from "../../source/process/runner.js";
import { SYSTEM_PYTHON } from "../../source/process/spawner-kind.js";
import { carriesEntry, findMarked } from "../../source/process/sweep.js";
import { startWatchdog, type Watchdog } from "../../source/process/watchdog.js";
import { Markers, markedSleep, pidsWith, survivors, takesSignals, waitFor } from "./survivors.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" };
const markers = new Markers();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-containment-"));
});
afterEach(async () => {
  markers.killAll();
  await rm(dir, { recursive: true, force: true });
});

/** A script whose children escape the process group three ways, then hangs (or exits). */
function escaping(marker: string, end: "hang" | "exit"): string {
  return [
    `setsid bash -c '${markedSleep(`${marker}-setsid`)}' &`,
    // A daemon's double fork: fork, setsid, fork again (the group kill misses it).
    `( ( setsid -f bash -c '${markedSleep(`${marker}-daemon`)}' ) & ) &`,
    `perl -e 'setpgrp(0,0); exec {"sleep"} "${marker}-setpgid", "300"' &`,
    "sleep 0.3",
    end === "hang" ? "sleep 300" : "exit 0",
  ].join("\n");
}

describe("carriesEntry", () => {
  const environ = (...entries: string[]) => Buffer.from(`${entries.join("\0")}\0`);
  it("matches a whole entry name at the start or after a NUL, not inside a value", () => {
    const entry = Buffer.from("ACAI_RUN_AB=");
    expect(carriesEntry(environ("ACAI_RUN_AB=1", "PATH=/bin"), entry)).toBe(true);
    expect(carriesEntry(environ("PATH=/bin", "ACAI_RUN_AB=7"), entry)).toBe(true);
    expect(carriesEntry(environ("X=ACAI_RUN_AB=1"), entry)).toBe(false);
    expect(carriesEntry(environ("XACAI_RUN_AB=1"), entry)).toBe(false);
    expect(carriesEntry(Buffer.alloc(0), entry)).toBe(false);
  });
  it("a run entry matches that run only", () => {
    const run1 = Buffer.from("ACAI_RUN_AB=1\0");
    expect(carriesEntry(environ("ACAI_RUN_AB=1"), run1)).toBe(true);
    expect(carriesEntry(environ("ACAI_RUN_AB=12"), run1)).toBe(false);
  });
});

describe("a runner with containment", () => {
  it("marks every child with acai's marker and the run's id, and keeps inherited markers", async () => {
    const containment = createContainment({ inherited: { ACAI_RUN_OUTER: "4" } });
    const runner = createProcessRunner({ containment });
    const result = await runner({ command: "/usr/bin/env", cwd: dir, env });
    expect(result.stdout).toContain(`${containment.markerName}=1\n`);
    expect(result.stdout).toContain("ACAI_RUN_OUTER=4\n");
    expect(result.stdout).toContain(`PATH=${env.PATH}`);
    containment.sweepAll();
  });

  it("sweeps the setsid, daemon (double fork) and setpgid escapees of a run that timed out", async () => {
    const marker = markers.next();
    const runner = createProcessRunner({ containment: createContainment() });
    const result = await runner({
      command: "/bin/bash",
      args: ["-c", escaping(marker, "hang")],
      cwd: dir,
      env,
      timeoutMs: 1000,
      killGraceMs: 100,
    });
    expect(result.timedOut).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  });

  it("leaves a finished run's escapees to sweepAll, which kills them", async () => {
    const marker = markers.next();
    const containment = createContainment();
    const runner = createProcessRunner({ containment });
    const result = await runner({
      command: "/bin/bash",
      args: ["-c", escaping(marker, "exit")],
      cwd: dir,
      env,
    });
    expect(result.exitCode).toBe(0);
    expect(pidsWith(marker)).toHaveLength(3);
    expect(findMarked(`${containment.markerName}=`)).toHaveLength(3);
    expect(containment.sweepAll()).toBe(3);
    expect(await survivors(marker)).toEqual([]);
  });

  it("with sweepOnExit, sweeps a run's escapees also when it ends by itself", async () => {
    const marker = markers.next();
    const runner = createProcessRunner({ containment: createContainment() });
    const result = await runner({
      command: "/bin/bash",
      args: ["-c", escaping(marker, "exit")],
      cwd: dir,
      env,
      sweepOnExit: true,
    });
    expect(result.exitCode).toBe(0);
    expect(await survivors(marker)).toEqual([]);
  });

  it("never touches another acai's processes", async () => {
    const marker = markers.next();
    const mine = createContainment();
    const other = createContainment();
    await createProcessRunner({ containment: other })({
      command: "/bin/bash",
      args: ["-c", escaping(marker, "exit")],
      cwd: dir,
      env,
    });
    mine.beforeSpawn();
    expect(mine.sweepAll()).toBe(0);
    expect(pidsWith(marker)).toHaveLength(3);
    other.sweepAll();
    expect(await survivors(marker)).toEqual([]);
  });

  it("starts the watchdog at the first spawn on the host, none for spawns in a namespace", async () => {
    const markerName = newMarkerName();
    const exits: (() => void)[] = [];
    const containment = createContainment({
      markerName,
      watchdogExecPath: process.execPath,
      onExit: (sweep) => exits.push(sweep),
    });
    // The watchdog's argv names the entry it sweeps for.
    const watchdogs = () => pidsWith(`${markerName}=`);
    try {
      containment.beforeSpawn("namespace");
      containment.beforeSpawn("namespace");
      expect(exits).toHaveLength(1); // the exit sweep holds for namespaced children too
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(watchdogs()).toEqual([]);
      containment.beforeSpawn("host");
      containment.beforeSpawn();
      expect(await waitFor(() => watchdogs().length === 1)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(watchdogs()).toHaveLength(1);
      expect(exits).toHaveLength(1);
    } finally {
      for (const pid of watchdogs()) process.kill(pid, "SIGKILL");
    }
  });

  it("does not scan /proc when nothing was spawned", () => {
    const containment = createContainment({ procDir: join(dir, "no-proc") });
    expect(containment.sweepAll()).toBe(0);
  });
});

describe("the watchdog", () => {
  /** A marked process that escaped to a session of its own; the watchdog is started on its marker. */
  async function escapedAndWatched(python: string | false) {
    const marker = markers.next();
    const markerName = newMarkerName();
    spawn("setsid", ["bash", "-c", markedSleep(marker)], {
      env: { ...env, [markerName]: "1" },
      stdio: "ignore",
      detached: true,
    }).unref();
    expect(await waitFor(() => pidsWith(marker).length === 1)).toBe(true);
    const watchdog = startWatchdog({
      execPath: process.execPath,
      entry: `${markerName}=`,
      procDir: "/proc",
      python,
    });
    if (watchdog?.pid() === undefined) throw new Error("the watchdog did not start");
    return { marker, watchdog };
  }

  /** Closes acai's end of the pipe, as acai's death does; resolves with the watchdog's exit code. */
  function acaiDies(watchdog: Watchdog): Promise<unknown> {
    const child = watchdog.child();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    watchdog.close();
    return exited;
  }

  const kinds = [
    { kind: "python", python: SYSTEM_PYTHON, runs: existsSync(SYSTEM_PYTHON) },
    { kind: "node", python: false, runs: true },
  ] as const;
  for (const { kind, python, runs } of kinds) {
    it.runIf(runs)(
      `(${kind}) sweeps the marker when acai's end of its pipe closes, then exits`,
      async () => {
        const { marker, watchdog } = await escapedAndWatched(python);
        expect(watchdog.kind()).toBe(kind);
        // Still there while acai lives, and deaf to the signals a terminal or a group kill sends
        // (sent once it has set itself up: its mask of ignored or caught signals holds them).
        const pid = watchdog.pid() as number;
        expect(await waitFor(() => takesSignals(pid, [15, 1]))).toBe(true);
        process.kill(watchdog.pid() as number, "SIGTERM");
        process.kill(watchdog.pid() as number, "SIGHUP");
        await new Promise((resolve) => setTimeout(resolve, 300));
        expect(pidsWith(marker)).toHaveLength(1);
        expect(watchdog.kind()).toBe(kind);
        expect(await acaiDies(watchdog)).toBe(0);
        expect(await survivors(marker)).toEqual([]);
        // Its pipe closed by acai: no watchdog takes its place.
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(watchdog.kind()).toBe(kind);
      },
    );
  }

  for (const { kind, python, runs } of kinds) {
    it.runIf(runs)(
      `(${kind}) a kernel thread, a zombie or a process that stays in an exec does not keep its sweep from ending`,
      async () => {
        // A fake /proc (the watchdog takes its folder): an empty environment is
        // all three show; only the one in an exec is looked at again, a few rounds.
        const procDir = join(dir, "proc");
        const shown = {
          40: { stat: "40 (kworker/0:1) I 2 0 0 0", cmdline: "" },
          41: { stat: "41 (sleep) Z 1 41 41 0", cmdline: "" },
          42: { stat: "42 (bash) R 1 42 42 0", cmdline: "" },
        };
        for (const [pid, files] of Object.entries(shown)) {
          await mkdir(join(procDir, pid), { recursive: true });
          await writeFile(join(procDir, pid, "environ"), "");
          await writeFile(join(procDir, pid, "stat"), files.stat);
          await writeFile(join(procDir, pid, "cmdline"), files.cmdline);
        }
        const watchdog = startWatchdog({
          execPath: process.execPath,
          entry: `${newMarkerName()}=`,
          procDir,
          python,
        });
        if (watchdog === undefined) throw new Error("the watchdog did not start");
        expect(watchdog.kind()).toBe(kind);
        // It exits by itself, without an error of its script.
        expect(await acaiDies(watchdog)).toBe(0);
      },
    );
  }

  it("a Python that cannot run the watchdog is replaced by the Node one, which sweeps", async () => {
    const { marker, watchdog } = await escapedAndWatched("/bin/false");
    expect(await waitFor(() => watchdog.kind() === "node")).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(pidsWith(marker)).toHaveLength(1);
    expect(await acaiDies(watchdog)).toBe(0);
    expect(await survivors(marker)).toEqual([]);
  });

  it("no Python at the given path: the Node one from the start", async () => {
    const { watchdog } = await escapedAndWatched(join(dir, "no-python"));
    expect(watchdog.kind()).toBe("node");
    expect(await acaiDies(watchdog)).toBe(0);
  });
});
