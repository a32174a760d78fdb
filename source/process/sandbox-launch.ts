/**
 * Starting a process inside the OS sandbox (RunOptions.sandbox): through the
 * policy's long-lived spawner (spawner.ts; one per SandboxLaunch.key per acai
 * process, started at the first run, started again after it died) — the
 * Python one where the launch asks for it (decision 0059), the Node one
 * where it does not or where the Python one did not start — or — when
 * a spawner cannot start for a policy — one `bwrap … -- command` per process,
 * said once. Both run the process in a PID namespace that dies with acai
 * (bwrap.ts). A launch that keeps its runs' CLAUDE_ENV_FILE (decision 0069)
 * runs them through its spawner while that keeps such files, else in the
 * launch that may write them. Without bwrap there is no sandboxed start: the run fails with
 * what to do (never a silent start outside the sandbox).
 */
import { bwrapArgv, findBwrap } from "./bwrap.js";
import { processContainment } from "./containment.js";
import type { SpawnOutcome } from "./handle.js";
import { type SpawnTarget, spawnGroup } from "./spawn.js";
import { type SandboxStdin, Spawner } from "./spawner.js";
import { SYSTEM_PYTHON } from "./spawner-kind.js";
import type { SandboxLaunch } from "./types.js";

export interface SandboxLauncher {
  /** Starts `target` (its environment complete: markers set) inside `launch`'s sandbox. */
  start(target: SpawnTarget, launch: SandboxLaunch, stdin: SandboxStdin): Promise<SpawnOutcome>;
  /**
   * Starts the policy's spawner in the background if it has none yet (nothing runs in it):
   * a session does so for the hooks that run before its first model request, so the
   * spawner's start (bwrap and a Node) overlaps the rest of the set-up. A start that
   * fails is met by the first run as if that run had begun it.
   */
  prepare(launch: SandboxLaunch): void;
  /** How the policy's processes start now: through its spawner, or one bwrap each. */
  mode(key: string): "spawner" | "per-process" | "not-started";
  /** Stops every spawner (their namespaces and what runs in them die). */
  stopAll(): void;
}

export interface SandboxLauncherOptions {
  /** bwrap's path; default: found on acai's PATH at the first sandboxed start. */
  bwrap?: () => string | undefined;
  /** The Node that runs the spawner (default `process.execPath`). */
  execPath?: string;
  /** The spawner's environment (acai's containment marker). */
  spawnerEnv?: () => Readonly<Record<string, string>>;
  /** Says one line to the user (default: stderr). */
  notify?: (line: string) => void;
  tmpDir?: string;
  /** `false`: always one bwrap per process (benchmarks, tests). */
  useSpawner?: boolean;
  /** The Python of a launch whose `helper` is "python" (default /usr/bin/python3, never looked up on PATH). */
  python?: string;
  /** Says why a Python spawner was not used (acai: on stderr with ACAI_DEBUG=1). */
  debug?: (line: string) => void;
}

type Started = Promise<Spawner | { failure: string }>;

/** Each policy key's spawner start. */
class SpawnerStarts {
  readonly byKey = new Map<string, Started>();
  /** Keys whose Python spawner did not start: Node from then on (not tried again). */
  private readonly noPython = new Set<string>();

  constructor(private readonly options: SandboxLauncherOptions) {}

  start(path: string, launch: SandboxLaunch): Started {
    const started = this.begin(path, launch);
    this.byKey.set(launch.key, started);
    return started;
  }

  stopAll(): void {
    for (const key of [...this.byKey.keys()]) this.stop(key);
  }

  private stop(key: string): void {
    void this.byKey.get(key)?.then((spawner) => {
      if (spawner instanceof Spawner) spawner.stop();
    });
    this.byKey.delete(key);
  }

  /** The launch's Python spawner, or its Node one when it asks for Node or Python did not start. */
  private begin(path: string, launch: SandboxLaunch): Started {
    if (launch.helper === "node" || this.noPython.has(launch.key)) return this.spawn(path, launch);
    const python = this.options.python ?? SYSTEM_PYTHON;
    return this.spawn(path, launch, python).then((started) => {
      if (started instanceof Spawner) return started;
      this.options.debug?.(
        `sandbox spawner of policy "${launch.name}": the Python spawner (${python}) did not start (${started.failure}); using the Node one`,
      );
      this.noPython.add(launch.key);
      return this.spawn(path, launch);
    });
  }

  private spawn(path: string, launch: SandboxLaunch, python?: string): Started {
    return Spawner.start({
      place: { kind: "sandbox", bwrap: path, launch, ...(python === undefined ? {} : { python }) },
      execPath: this.options.execPath ?? process.execPath,
      env: this.options.spawnerEnv?.() ?? {},
      ...(this.options.tmpDir === undefined ? {} : { tmpDir: this.options.tmpDir }),
    });
  }
}

export function createSandboxLauncher(options: SandboxLauncherOptions = {}): SandboxLauncher {
  const starts = new SpawnerStarts(options);
  const spawners = starts.byKey;
  const perProcess = new Set<string>();
  const notify = options.notify ?? ((line: string) => process.stderr.write(`${line}\n`));
  let bwrap: string | undefined;

  /** The policy's running spawner: the one there is, else a new one (also after one died). */
  const spawnerFor = async (path: string, launch: SandboxLaunch): Promise<Spawner | undefined> => {
    if (options.useSpawner === false || perProcess.has(launch.key)) return undefined;
    const known = spawners.get(launch.key);
    const previous = known ? await known : undefined;
    if (previous instanceof Spawner && previous.running) return previous;
    // A start that failed (one prepare() began) is not tried again; a spawner that died is.
    const spawner =
      previous !== undefined && !(previous instanceof Spawner)
        ? previous
        : await (spawners.get(launch.key) === known
            ? starts.start(path, launch)
            : spawners.get(launch.key)!);
    if (spawner instanceof Spawner) return spawner;
    if (!perProcess.has(launch.key)) {
      perProcess.add(launch.key);
      notify(
        `acai: the sandbox helper for policy "${launch.name}" could not start (${spawner.failure}); ` +
          "each sandboxed process starts its own bwrap instead (slower)",
      );
    }
    return undefined;
  };

  const start: SandboxLauncher["start"] = async (target, launch, stdin) => {
    bwrap ??= (options.bwrap ?? findBwrap)();
    if (bwrap === undefined) {
      return {
        spawnError:
          `cannot run "${target.command}" in the sandbox (policy "${launch.name}"): bwrap is not on PATH; ` +
          "install bubblewrap (Debian/Ubuntu: apt install bubblewrap) or turn the sandbox off",
      };
    }
    const envFile = launch.keepsEnvFile === undefined ? undefined : target.env.CLAUDE_ENV_FILE;
    const spawner = await spawnerFor(bwrap, launch);
    if (envFile !== undefined && launch.keepsEnvFile !== undefined) {
      // Kept in the spawner's namespace while only such runs ran in it (0069), else where it may be written.
      if (spawner?.keepsEnvFiles === true) return spawner.run(target, stdin, envFile);
      return start(target, launch.keepsEnvFile.otherwise, stdin);
    }
    if (spawner) return spawner.run(target, stdin);
    const argv = bwrapArgv(launch.bwrapArgs, target.command, target.args ?? [], [
      "--chdir",
      target.cwd,
    ]);
    const pipe = stdin === "ignore" ? "ignore" : "pipe"; // the runner writes a text itself
    return spawnGroup({ ...target, command: bwrap, args: argv }, pipe, target);
  };

  return {
    start,
    prepare(launch) {
      if (options.useSpawner === false || perProcess.has(launch.key)) return;
      if (spawners.has(launch.key)) return;
      bwrap ??= (options.bwrap ?? findBwrap)();
      if (bwrap !== undefined) starts.start(bwrap, launch);
    },
    mode(key) {
      if (perProcess.has(key) || options.useSpawner === false) return "per-process";
      return spawners.has(key) ? "spawner" : "not-started";
    },
    stopAll: () => starts.stopAll(),
  };
}

let current: SandboxLauncher | undefined;

/** The launcher acai uses: its spawners carry this acai process's marker, so its exit sweep ends them too. */
export function processSandboxLauncher(): SandboxLauncher {
  current ??= createSandboxLauncher({
    spawnerEnv: () => {
      // Also a spawner started ahead of any run (prepare) is swept at acai's exit; it runs in
      // bwrap's PID namespace, which dies with acai even if acai is SIGKILLed (no watchdog).
      processContainment().beforeSpawn("namespace");
      return processContainment().envFor({}, "spawner");
    },
    debug: (line) => {
      if (process.env.ACAI_DEBUG === "1") process.stderr.write(`acai: debug: ${line}\n`);
    },
  });
  return current;
}
