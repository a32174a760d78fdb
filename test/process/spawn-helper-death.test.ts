/**
 * The spawn helper dies with acai (decisions 0041 and 0056), each test run
 * against both helpers (Python and Node): when the process that started it
 * exits or is SIGKILLed, its running children's groups are killed; when the
 * line it writes to acai fails because acai is gone (EPIPE), the same —
 * that write used to crash the Node helper before it saw its stdin close,
 * leaving its children on the host; and a helper that died after forking but
 * before acai read the pid leaves nothing of that run (swept by marker).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createContainment } from "../../source/process/containment.js";
import { createProcessRunner } from "../../source/process/runner.js";
import type { SpawnHelper } from "../../source/process/spawn-helper.js";
import { bareHelper, KINDS } from "./spawn-helper-kinds.js";
import { Markers, markedSleep, onlyNamed, pidsWith, survivors, waitFor } from "./survivors.js";

const markers = new Markers();
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-spawn-helper-death-"));
});

afterEach(async () => {
  markers.killAll();
  await rm(dir, { recursive: true, force: true });
});

function parentOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
}

function alive(pid: number): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0];
    return state !== undefined && state !== "Z";
  } catch {
    return false;
  }
}

describe.each(KINDS)("the $name helper dies with acai", (kind) => {
  const built = resolve("dist/process/spawn-helper.js");
  it.skipIf(kind.missing !== undefined).each([
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
      const helper = createSpawnHelper({ tmpDir: ${JSON.stringify(dir)}, ...${JSON.stringify(kind.options)} });
      if (!(await helper.ready()) || helper.kind() !== ${JSON.stringify(kind.name)}) process.exit(7);
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
      const sleeper = await onlyNamed(marker);
      expect(sleeper).toBeDefined();
      expect(parentOf(sleeper!)).toBe(helperPid);
      acai.stdin.write("go\n");
      await new Promise((done) => acai.once("exit", done));
      expect(await survivors(marker, 5000)).toEqual([]);
      expect(await waitFor(() => !alive(helperPid), 5000)).toBe(true);
    },
  );

  it.skipIf(kind.missing !== undefined)(
    "when its answers can no longer be written (acai gone): it kills its children's groups and exits",
    async () => {
      const marker = markers.next();
      const helper = await bareHelper(kind, dir);
      try {
        helper.spawn("/bin/bash", ["-c", markedSleep(marker)]);
        expect(await helper.nextLine()).toMatch(/"started":\d+/);
        // `started` comes once bash is exec'd; the marked sleep a moment later.
        expect(await waitFor(() => pidsWith(marker).length === 1)).toBe(true);
        // As when acai has just died: the next line the helper writes (here the second run's
        // `started`) fails with EPIPE.
        helper.stopReading();
        helper.spawn("/bin/true", []);
        expect(await survivors(marker)).toEqual([]);
        expect(await waitFor(() => !alive(helper.pid), 5000)).toBe(true);
      } finally {
        helper.close();
      }
    },
  );
});

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
      kind: () => undefined,
      stop: () => {},
    };
    const run = createProcessRunner({ helper: lostHelper, containment: createContainment() });
    const result = await run({ command: "/bin/true", cwd: dir, env: { PATH: "/usr/bin:/bin" } });
    expect(result.spawnError).toMatch(/spawn helper stopped/);
    expect(await survivors(marker)).toEqual([]);
  });
});
