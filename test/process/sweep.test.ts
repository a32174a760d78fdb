import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findMarked, sweepMarked } from "../../source/process/sweep.js";

/**
 * A fake /proc: the folders are real (readdir), the files are what `show`
 * says at each read — so a test can show a process as it is in the middle
 * of an exec (empty environment and command line) and then after it.
 */
interface Shown {
  environ: string;
  cmdline: string;
  stat: string;
}

let procDir: string;
beforeEach(async () => {
  procDir = await mkdtemp(join(tmpdir(), "acai-sweep-"));
});
afterEach(async () => {
  await rm(procDir, { recursive: true, force: true });
});

const MARK = "ACAI_MARK_T=1";
const running = (pid: number, ppid = 1): Shown => ({
  environ: `PATH=/bin\0${MARK}\0`,
  cmdline: "sleep\x180\0",
  stat: `${pid} (sleep) S ${ppid} ${pid} ${pid} 0`,
});
const inExec = (pid: number, ppid = 1): Shown => ({
  environ: "",
  cmdline: "",
  stat: `${pid} (bash) R ${ppid} ${pid} ${pid} 0`,
});

async function fakeProc(pids: number[], show: (pid: number, scan: number) => Shown) {
  for (const pid of pids) await mkdir(join(procDir, String(pid)));
  const scans = new Map<number, number>();
  const killed: number[] = [];
  const read = (file: string): Buffer => {
    const [pidText, name] = file.slice(procDir.length + 1).split("/");
    const pid = Number(pidText);
    if (killed.includes(pid)) throw Object.assign(new Error("gone"), { code: "ENOENT" });
    // A scan reads each pid's environ once: count the scans by it.
    if (name === "environ") scans.set(pid, (scans.get(pid) ?? 0) + 1);
    const shown = show(pid, scans.get(pid) ?? 1);
    return Buffer.from(shown[name as keyof Shown], "latin1");
  };
  const kill = (pid: number) => {
    killed.push(pid);
  };
  return { read, kill, killed, scans };
}

describe("sweepMarked and a process in the middle of an exec", () => {
  it("a process with no environment yet (empty command line, not a kernel thread) is looked at again, and killed once it shows the marker", async () => {
    const fake = await fakeProc([300], (pid, scan) => (scan <= 2 ? inExec(pid) : running(pid)));
    const count = sweepMarked(MARK, { procDir, read: fake.read, kill: fake.kill, exclude: [] });
    expect(count).toBe(1);
    expect(fake.killed).toEqual([300]);
    expect(fake.scans.get(300)).toBe(3);
  });

  it("without that second look it would be missed: the first scan alone finds nothing", async () => {
    const fake = await fakeProc([300], (pid, scan) => (scan === 1 ? inExec(pid) : running(pid)));
    expect(findMarked(MARK, { procDir, read: fake.read })).toEqual([]);
  });

  it("kernel threads and zombies, whose environment is always empty, do not hold the sweep", async () => {
    const fake = await fakeProc([2, 40, 500], (pid) => {
      if (pid === 2) return inExec(2, 0); // kthreadd
      if (pid === 40) return inExec(40, 2); // a kernel thread
      return { ...inExec(500), stat: "500 (defunct) Z 1 500 500 0" };
    });
    expect(sweepMarked(MARK, { procDir, read: fake.read, kill: fake.kill, exclude: [] })).toBe(0);
    expect(fake.scans.get(500)).toBe(1);
  });

  it("a process that never shows an environment holds it a few rounds only", async () => {
    const fake = await fakeProc([600], (pid) => inExec(pid));
    expect(sweepMarked(MARK, { procDir, read: fake.read, kill: fake.kill, exclude: [] })).toBe(0);
    // The first scan and five more (EXEC_ROUNDS), not rounds until the 1 s deadline.
    expect(fake.scans.get(600)).toBe(6);
  });
});
