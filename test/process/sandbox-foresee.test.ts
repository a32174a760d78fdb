/**
 * A spawner foreseen from an earlier session (SandboxLauncher.foresee,
 * session/spawner-forecast.ts): it serves a later `prepare` or run of the
 * same key instead of a second bwrap; nobody's claim, it is stopped by
 * `dropUnclaimed`; a foreseen start that fails says nothing and is forgotten,
 * or — claimed meanwhile — is begun afresh for the claimer.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { containmentInForce } from "../../source/process/bwrap.js";
import { createContainment } from "../../source/process/containment.js";
import { createProcessRunner } from "../../source/process/runner.js";
import {
  createSandboxLauncher,
  type SandboxLauncher,
  type SandboxLauncherOptions,
} from "../../source/process/sandbox-launch.js";
import type { ProcessRunner, SandboxLaunch, SpawnerKind } from "../../source/process/types.js";
import { PYTHON } from "./spawn-helper-kinds.js";
import { pidsWith, waitFor } from "./survivors.js";

const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", SHLVL: "1" };
const available = containmentInForce().kind === "namespace";
/** Both spawner kinds (decision 0059; the Python one where /usr/bin/python3 is installed). */
const KINDS: readonly SpawnerKind[] = existsSync(PYTHON) ? ["python", "node"] : ["node"];
let helper: SpawnerKind = "node";
let dir: string;
const launchers: SandboxLauncher[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-sandbox-foresee-"));
});

afterEach(async () => {
  for (const launcher of launchers.splice(0)) launcher.stopAll();
  await waitFor(() => bwraps().length === 0);
  await rm(dir, { recursive: true, force: true });
});

function policy(key = "test"): SandboxLaunch {
  return {
    key,
    name: key,
    bwrapArgs: ["--ro-bind", "/", "/", "--dev", "/dev", "--bind", dir, dir],
    helper,
  };
}

/** bwrap processes started for this test's policy (their arguments name its folder), not their children. */
function bwraps(): number[] {
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
}

function setup(options: SandboxLauncherOptions = {}): {
  run: ProcessRunner;
  launcher: SandboxLauncher;
} {
  const launcher = createSandboxLauncher({ notify: () => {}, ...options });
  launchers.push(launcher);
  return {
    run: createProcessRunner({ containment: createContainment(), sandbox: launcher }),
    launcher,
  };
}

function echo(run: ProcessRunner, text: string) {
  return run({ command: "/bin/echo", args: [text], cwd: dir, env, sandbox: policy() });
}

/**
 * A "Node" for the spawner that never gets ready: it counts its starts and exits — and no
 * Python (a Python spawner that cannot start is replaced by the Node one: sandbox-runner.test.ts).
 */
function failingNode(): {
  options: { execPath: string; python: string };
  starts: () => number;
} {
  const starts = join(dir, "starts");
  const execPath = join(dir, "node");
  writeFileSync(execPath, `#!/bin/sh\necho started >> ${starts}\nexit 1\n`, { mode: 0o755 });
  const count = () => {
    try {
      return readFileSync(starts, "utf8").split("\n").filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  return { options: { execPath, python: "/nonexistent/python3" }, starts: count };
}

describe.skipIf(!available).each(KINDS)("a foreseen %s spawner", (kind) => {
  beforeEach(() => {
    helper = kind;
  });

  it("serves the prepare and the runs of its key: one bwrap, not two", async () => {
    const { run, launcher } = setup();
    launcher.foresee(policy());
    expect(await waitFor(() => bwraps().length === 1)).toBe(true);
    launcher.prepare(policy());
    launcher.dropUnclaimed(); // claimed: kept
    expect(await echo(run, "through")).toMatchObject({ exitCode: 0, stdout: "through\n" });
    expect(bwraps()).toHaveLength(1);
    expect(launcher.mode("test")).toBe("spawner");
  });

  it("is claimed by a run as well as by a prepare", async () => {
    const { run, launcher } = setup();
    launcher.foresee(policy());
    expect(await echo(run, "first")).toMatchObject({ exitCode: 0, stdout: "first\n" });
    launcher.dropUnclaimed();
    expect(await echo(run, "second")).toMatchObject({ exitCode: 0, stdout: "second\n" });
    expect(bwraps()).toHaveLength(1);
  });

  it("nobody claimed is stopped; a later prepare starts its own", async () => {
    const { run, launcher } = setup();
    launcher.foresee(policy());
    expect(await waitFor(() => bwraps().length === 1)).toBe(true);
    const [foreseen] = bwraps();
    launcher.prepare(policy("other")); // another key claims nothing
    launcher.dropUnclaimed();
    expect(await waitFor(() => bwraps().length === 1 && !bwraps().includes(foreseen ?? 0))).toBe(
      true,
    );
    expect(launcher.mode("test")).toBe("not-started");
    expect(launcher.mode("other")).toBe("spawner");
    expect(await echo(run, "fresh")).toMatchObject({ exitCode: 0, stdout: "fresh\n" });
    expect(bwraps()).toHaveLength(2);
    expect(bwraps()).not.toContain(foreseen);
  });

  it("that fails to start, unclaimed, is forgotten without a word; a later run starts afresh", async () => {
    const node = failingNode();
    const said: string[] = [];
    const { run, launcher } = setup({ ...node.options, notify: (l) => said.push(l) });
    launcher.foresee(policy());
    expect(
      await waitFor(() => node.starts() === 1 && launcher.mode("test") === "not-started"),
    ).toBe(true);
    expect(said).toEqual([]);
    // The session's own start fails too: one more start, then one bwrap per process, said once.
    expect(await echo(run, "one")).toMatchObject({ exitCode: 0, stdout: "one\n" });
    expect(node.starts()).toBe(2);
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/sandbox helper for policy "test" could not start/);
    expect(launcher.mode("test")).toBe("per-process");
  });

  it("that fails to start after a prepare claimed it is begun afresh for it, as if none had been foreseen", async () => {
    const node = failingNode();
    const said: string[] = [];
    const { run, launcher } = setup({ ...node.options, notify: (l) => said.push(l) });
    launcher.foresee(policy());
    launcher.prepare(policy());
    expect(await echo(run, "one")).toMatchObject({ exitCode: 0, stdout: "one\n" });
    expect(node.starts()).toBe(2);
    expect(said).toHaveLength(1);
    expect(launcher.mode("test")).toBe("per-process");
  });

  it("is not started where every process gets its own bwrap", async () => {
    const { launcher } = setup({ useSpawner: false });
    launcher.foresee(policy());
    expect(bwraps()).toEqual([]);
    expect(launcher.mode("test")).toBe("per-process");
  });
});
