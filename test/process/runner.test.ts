import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { getEventListeners } from "node:events";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createProcessRunner, runProcess } from "../../source/process/runner.js";
import { processSpawnHelper } from "../../source/process/spawn-helper.js";

const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", LANG: "C.UTF-8" };
let dir: string;
const markers: string[] = [];

// runProcess forks through the spawn helper once it is ready (decision 0041): these tests run through it.
beforeAll(async () => {
  expect(await processSpawnHelper().helper?.ready()).toBe(true);
});

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-runner-"));
});

afterEach(async () => {
  // Belt and braces: never leave a test's processes behind, even when it failed.
  for (const marker of markers.splice(0)) {
    for (const pid of pidsWith(marker)) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {}
    }
  }
  await rm(dir, { recursive: true, force: true });
});

function newMarker(): string {
  const marker = `acai-runner-test-${randomUUID()}`;
  markers.push(marker);
  return marker;
}

function pidsWith(marker: string): number[] {
  const out = execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("<defunct>"))
    .map((line) => Number.parseInt(line.trim(), 10));
}

/** Killing is asynchronous at the kernel level: give it a moment to be reaped. */
async function expectGone(marker: string): Promise<void> {
  const deadline = Date.now() + 2000;
  while (pidsWith(marker).length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(pidsWith(marker)).toEqual([]);
}

function bash(script: string, extra: Partial<Parameters<typeof runProcess>[0]> = {}) {
  return runProcess({ command: "/bin/bash", args: ["-c", script], cwd: dir, env, ...extra });
}

describe("runProcess basics", () => {
  it("returns stdout, stderr and exit code", async () => {
    const result = await bash("echo out; echo err >&2; exit 3");
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      stdout: "out\n",
      stderr: "err\n",
      timedOut: false,
      aborted: false,
      truncated: { stdout: false, stderr: false },
    });
    expect(result.spawnError).toBeUndefined();
    expect(result.durationMs).toBeGreaterThan(0);
  });

  it("keeps output that is still unread when the drain window has already passed", async () => {
    // drainMs 0: the drain timer can fire before the loop has read the pipes.
    const eager = createProcessRunner({ drainMs: 0 });
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        eager({ command: "/bin/bash", args: ["-c", `printf 'line-${i}'`], cwd: dir, env }),
      ),
    );
    expect(results.map((r) => r.stdout)).toEqual(results.map((_, i) => `line-${i}`));
  });

  it("writes stdin then closes it", async () => {
    const result = await runProcess({ command: "cat", cwd: dir, env, stdin: "hello\nworld" });
    expect(result.stdout).toBe("hello\nworld");
    expect(result.exitCode).toBe(0);
  });

  it("gives the child exactly the environment passed (plus acai's marker), in the cwd passed", async () => {
    const result = await runProcess({
      command: "/usr/bin/env",
      cwd: dir,
      env: { ONLY_THIS: "yes" },
    });
    const lines = result.stdout.trim().split("\n");
    expect(lines.filter((line) => !line.startsWith("ACAI_RUN_"))).toEqual(["ONLY_THIS=yes"]);
    expect(lines.filter((line) => line.startsWith("ACAI_RUN_"))).toHaveLength(1);
    const bare = await createProcessRunner()({
      command: "/usr/bin/env",
      cwd: dir,
      env: { A: "1" },
    });
    expect(bare.stdout.trim()).toBe("A=1");
    const pwd = await bash("pwd -P");
    expect(pwd.stdout.trim()).toBe(execFileSync("realpath", [dir], { encoding: "utf8" }).trim());
  });

  it("runs the child in its own process group", async () => {
    const result = await bash("ps -o pgid= -p $$; echo $$");
    const [pgid, pid] = result.stdout.trim().split(/\s+/);
    expect(pgid).toBe(pid);
    expect(Number(pgid)).not.toBe(process.pid);
  });

  it("decodes invalid UTF-8 as U+FFFD without throwing", async () => {
    const result = await bash("printf '\\xff\\xfeok\\xc3'; printf 'caf\\xc3\\xa9' >&2");
    expect(result.stdout).toBe("\uFFFD\uFFFDok\uFFFD");
    expect(result.stderr).toBe("café");
  });

  it("does not cut a multi-byte character at the cap", async () => {
    const result = await bash("printf 'ééé'", { maxOutputBytes: 3 });
    expect(result.stdout).toBe("é");
    expect(result.truncated.stdout).toBe(true);
  });
});

describe("spawn errors", () => {
  it("reports a missing executable", async () => {
    const result = await runProcess({
      command: "/nonexistent/acai-nope",
      cwd: dir,
      env,
      stdin: "x",
    });
    expect(result.spawnError).toMatch(/cannot run "\/nonexistent\/acai-nope": no such file/);
    expect(result.exitCode).toBeNull();
  });

  it("reports a file that is not executable", async () => {
    const file = join(dir, "script.sh");
    await writeFile(file, "#!/bin/sh\necho hi\n");
    await chmod(file, 0o644);
    const result = await runProcess({ command: file, cwd: dir, env });
    expect(result.spawnError).toMatch(/permission denied/);
  });

  it("names a missing working directory", async () => {
    const result = await runProcess({ command: "/bin/true", cwd: join(dir, "missing"), env });
    expect(result.spawnError).toMatch(/working directory .*missing.* does not exist/);
  });
});

describe("hostile children", () => {
  it("kills a child that ignores SIGTERM with SIGKILL after the grace", async () => {
    const marker = newMarker();
    const result = await bash(
      `trap '' TERM; echo ready; while :; do sleep 0.05; done; : ${marker}`,
      {
        timeoutMs: 200,
        killGraceMs: 300,
      },
    );
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    expect(result.exitCode).toBeNull();
    expect(result.stdout).toBe("ready\n");
    expect(result.durationMs).toBeGreaterThanOrEqual(450);
    expect(result.durationMs).toBeLessThan(5000);
    await expectGone(marker);
  });

  it("stops a well-behaved child with SIGTERM on timeout", async () => {
    const result = await bash("sleep 30", { timeoutMs: 100 });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGTERM");
    expect(result.durationMs).toBeLessThan(2000);
  });

  it("returns promptly when a background grandchild holds stdout, and kills it", async () => {
    const marker = newMarker();
    const result = await bash(`bash -c 'sleep 30; : ${marker}' & echo direct-done`);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("direct-done\n");
    expect(result.durationMs).toBeLessThan(2000);
    await expectGone(marker);
  });

  it("kills background children that do not hold the pipes", async () => {
    const marker = newMarker();
    const result = await bash(
      `bash -c 'sleep 30; : ${marker}' >/dev/null 2>&1 </dev/null & echo ok`,
    );
    expect(result.stdout).toBe("ok\n");
    await expectGone(marker);
  });

  it("caps 100 MB of output, keeps memory bounded and returns", async () => {
    const before = process.memoryUsage().rss;
    const result = await bash("head -c 100000000 /dev/zero | tr '\\0' 'a'; echo end >&2");
    const grown = process.memoryUsage().rss - before;
    expect(result.exitCode).toBe(0);
    expect(result.truncated).toEqual({ stdout: true, stderr: false });
    expect(result.stdout.length).toBe(1024 * 1024);
    expect(result.stdout).toMatch(/^a+$/);
    expect(result.stderr).toBe("end\n");
    // Keeping the whole stream would hold at least 100 MB of Buffers; chunks read and
    // dropped before the GC runs account for the rest of the growth seen under load.
    expect(grown).toBeLessThan(96 * 1024 * 1024);
  });

  it("kills the group when output passes the cap with onOutputLimit kill", async () => {
    const marker = newMarker();
    const result = await bash(`yes ${marker}`, { maxOutputBytes: 4096, onOutputLimit: "kill" });
    expect(result.truncated.stdout).toBe(true);
    expect(result.stdout.length).toBeLessThanOrEqual(4096);
    expect(result.signal).not.toBeNull();
    expect(result.timedOut).toBe(false);
    await expectGone(marker);
  });

  it("survives a child that never reads the 1 MB written to stdin", async () => {
    const big = "x".repeat(1024 * 1024);
    const result = await bash("sleep 0.1; echo done", { stdin: big });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("done\n");
  });

  it("survives a child that closes stdin at once", async () => {
    const big = "y".repeat(1024 * 1024);
    const result = await bash("exec 0<&-; echo closed", { stdin: big });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("closed\n");
  });

  it("kills the whole group when aborted and removes its abort listener", async () => {
    const marker = newMarker();
    const controller = new AbortController();
    const pending = bash(`bash -c 'sleep 30; : ${marker}' & sleep 30; : ${marker}`, {
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    await new Promise((r) => setTimeout(r, 150));
    expect(pidsWith(marker).length).toBeGreaterThan(0);
    const abortedAt = performance.now();
    controller.abort();
    const result = await pending;
    expect(performance.now() - abortedAt).toBeLessThan(1500);
    expect(result.aborted).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.signal).toBe("SIGTERM");
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
    await expectGone(marker);
  });

  it("does not start a child when the signal is already aborted", async () => {
    const marker = newMarker();
    const controller = new AbortController();
    controller.abort();
    const result = await bash(`sleep 30; : ${marker}`, { signal: controller.signal });
    expect(result.aborted).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(pidsWith(marker)).toEqual([]);
  });

  it("uses the runner's default kill grace when the call sets none", async () => {
    const runner = createProcessRunner({ defaultKillGraceMs: 100 });
    const result = await runner({
      command: "/bin/bash",
      args: ["-c", "trap '' TERM; while :; do sleep 0.05; done"],
      cwd: dir,
      env,
      timeoutMs: 100,
    });
    expect(result.timedOut).toBe(true);
    expect(result.signal).toBe("SIGKILL");
    expect(result.durationMs).toBeLessThan(1000);
  });
});
