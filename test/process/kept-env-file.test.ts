/**
 * A launch that keeps its runs' CLAUDE_ENV_FILE (decision 0069), through the
 * real runner and both spawner kinds: the run writes a file of its own in
 * the namespace's /dev/shm, written back to acai's file at its exit, while
 * the folder of acai's file stays read-only in that sandbox; once anything
 * else ran in the spawner, a run goes to the launch that may write the
 * folder; a file written while another process ran beside it is not
 * written back; and without a spawner (one bwrap per process) the run goes
 * there too.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { containmentInForce } from "../../source/process/bwrap.js";
import { createContainment } from "../../source/process/containment.js";
import { createProcessRunner } from "../../source/process/runner.js";
import {
  createSandboxLauncher,
  type SandboxLauncher,
} from "../../source/process/sandbox-launch.js";
import type { ProcessRunner, SandboxLaunch, SpawnerKind } from "../../source/process/types.js";
import { PYTHON } from "./spawn-helper-kinds.js";

const env = { PATH: "/usr/bin:/bin", LANG: "C.UTF-8", SHLVL: "1" };
const available = containmentInForce().kind === "namespace";
const KINDS: readonly SpawnerKind[] = existsSync(PYTHON) ? ["python", "node"] : ["node"];
let dir: string;
let envDir: string;
let envFile: string;
const launchers: SandboxLauncher[] = [];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-kept-env-"));
  envDir = join(dir, "session-env");
  envFile = join(envDir, "env-hook-0.sh");
  await mkdir(envDir, { mode: 0o700 });
  await writeFile(envFile, "export SEED=1\n", { mode: 0o600 });
});

afterEach(async () => {
  for (const launcher of launchers.splice(0)) launcher.stopAll();
  await chmod(envDir, 0o700).catch(() => {});
  await rm(dir, { recursive: true, force: true });
});

/** The hooks' launch (acai's folders read-only) keeping CLAUDE_ENV_FILE, the env-writing one as its fallback. */
function keeping(helper: SpawnerKind): SandboxLaunch {
  const base = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", dir, dir];
  const readOnly = ["--ro-bind", envDir, envDir];
  const otherwise = {
    key: `writing-${helper}`,
    name: "hooks",
    bwrapArgs: [...base, "--ro-bind", envDir, envDir, "--bind", envDir, envDir],
    helper,
  };
  return {
    key: `plain-${helper}`,
    name: "hooks",
    bwrapArgs: [...base, ...readOnly],
    helper,
    keepsEnvFile: { otherwise },
  };
}

function setup(useSpawner = true): ProcessRunner {
  const launcher = createSandboxLauncher({ notify: () => {}, useSpawner });
  launchers.push(launcher);
  return createProcessRunner({ containment: createContainment(), sandbox: launcher });
}

function sh(run: ProcessRunner, launch: SandboxLaunch, script: string, withFile = true) {
  return run({
    command: "/bin/bash",
    args: ["-c", script],
    cwd: dir,
    env: withFile ? { ...env, CLAUDE_ENV_FILE: envFile } : env,
    sandbox: launch,
  });
}

/** Says where its file is and what it held, appends to it, and tries acai's folder directly. */
const WRITE = `echo "$CLAUDE_ENV_FILE"; cat "$CLAUDE_ENV_FILE"; echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"; touch "$ENV_DIR/direct" 2>/dev/null || echo refused`;

describe.skipIf(!available).each(KINDS)("a kept CLAUDE_ENV_FILE, %s spawner", (kind) => {
  it("is a file of the run's own in the sandbox, written back at its exit", async () => {
    const run = setup();
    const result = await sh(run, keeping(kind), WRITE.replace("$ENV_DIR", envDir));
    expect(result.exitCode, result.stderr).toBe(0);
    const [file, seed, refused] = result.stdout.trim().split("\n");
    expect(file).toMatch(/^\/dev\/shm\/acai-env-[^/]+\/env$/);
    expect(seed).toBe("export SEED=1");
    // acai's folder stays read-only to the hook: only the spawner's copy reaches it.
    expect(refused).toBe("refused");
    expect(await readFile(envFile, "utf8")).toBe("export SEED=1\nexport FOO=bar\n");
    expect(existsSync(join(envDir, "direct"))).toBe(false);
  });

  it("after another run in the spawner, runs where acai's folder may be written", async () => {
    const run = setup();
    const launch = keeping(kind);
    expect((await sh(run, launch, "true", false)).exitCode).toBe(0);
    const result = await sh(run, launch, WRITE.replace("$ENV_DIR", envDir));
    const [file, , last] = result.stdout.trim().split("\n");
    expect(file).toBe(envFile);
    expect(last).toBeUndefined(); // the direct write was allowed there
    expect(existsSync(join(envDir, "direct"))).toBe(true);
    expect(await readFile(envFile, "utf8")).toBe("export SEED=1\nexport FOO=bar\n");
  });

  it("is not written back when another process ran beside it", async () => {
    const run = setup();
    const launch = keeping(kind);
    const slow = sh(run, launch, `sleep 0.5; echo 'export LATE=1' >> "$CLAUDE_ENV_FILE"`);
    // The other run starts while the first still sleeps (its file could have been written by it).
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await sh(run, launch, "true", false)).exitCode).toBe(0);
    expect((await slow).exitCode).toBe(0);
    expect(await readFile(envFile, "utf8")).toBe("export SEED=1\n");
  });

  it("is not read back when the hook left a FIFO in its place (the spawner goes on)", async () => {
    const run = setup();
    const launch = keeping(kind);
    const fifo = await sh(run, launch, `rm "$CLAUDE_ENV_FILE" && mkfifo "$CLAUDE_ENV_FILE"`);
    expect(fifo.exitCode, fifo.stderr).toBe(0);
    expect(await readFile(envFile, "utf8")).toBe("export SEED=1\n");
    const next = await sh(run, launch, `echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"`);
    expect(next.exitCode, next.stderr).toBe(0);
    expect(await readFile(envFile, "utf8")).toBe("export SEED=1\nexport FOO=bar\n");
  });

  it("is not written back through a link left in place of acai's file", async () => {
    const run = setup();
    const victim = join(dir, "victim");
    await writeFile(victim, "keep me\n");
    const running = sh(
      run,
      keeping(kind),
      `sleep 0.3; echo 'export FOO=bar' >> "$CLAUDE_ENV_FILE"`,
    );
    // While it runs, acai's file becomes a link (as a hook that may write the folder could make it).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await rm(envFile);
    await symlink(victim, envFile);
    expect((await running).exitCode).toBe(0);
    expect(await readFile(victim, "utf8")).toBe("keep me\n");
  });

  it("hands back at most one byte more than acai reads", async () => {
    const run = setup();
    const result = await sh(
      run,
      keeping(kind),
      `head -c 300000 /dev/zero | tr '\\0' a > "$CLAUDE_ENV_FILE"`,
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect((await readFile(envFile)).length).toBe(256 * 1024 + 1);
  });
});

describe.skipIf(!available)("a kept CLAUDE_ENV_FILE without a spawner", () => {
  it("runs where acai's folder may be written (one bwrap per process)", async () => {
    const result = await sh(setup(false), keeping("node"), WRITE.replace("$ENV_DIR", envDir));
    expect(result.stdout.trim().split("\n")[0]).toBe(envFile);
    expect(await readFile(envFile, "utf8")).toBe("export SEED=1\nexport FOO=bar\n");
  });
});
