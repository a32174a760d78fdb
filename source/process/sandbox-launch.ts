/**
 * Starting a process inside the OS sandbox (RunOptions.sandbox): through the
 * policy's long-lived spawner (spawner.ts; one per SandboxLaunch.key per acai
 * process, started at the first run, started again after it died), or — when
 * a spawner cannot start for a policy — one `bwrap … -- command` per process,
 * said once. acai's own launcher does not make a run wait for its policy's
 * spawner to start: until it is ready, runs start their own bwrap while it
 * starts (waitForSpawner). Both run the process in a PID namespace that dies with acai
 * (bwrap.ts). Without bwrap there is no sandboxed start: the run fails with
 * what to do (never a silent start outside the sandbox).
 */
import { bwrapArgv, findBwrap } from "./bwrap.js";
import { processContainment } from "./containment.js";
import type { SpawnOutcome } from "./handle.js";
import { type SpawnTarget, spawnGroup } from "./spawn.js";
import { type SandboxStdin, Spawner } from "./spawner.js";
import type { SandboxLaunch } from "./types.js";

export interface SandboxLauncher {
  /** Starts `target` (its environment complete: markers set) inside `launch`'s sandbox. */
  start(target: SpawnTarget, launch: SandboxLaunch, stdin: SandboxStdin): Promise<SpawnOutcome>;
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
  /**
   * `false`: a run does not wait for its policy's spawner to start — until the
   * spawner is ready, runs start their own bwrap (as after a spawner failure)
   * while it starts beside them (acai's own launcher: the first hooks of a
   * session do not wait for a Node to start in the sandbox). Default `true`.
   */
  waitForSpawner?: boolean;
}

export function createSandboxLauncher(options: SandboxLauncherOptions = {}): SandboxLauncher {
  const spawners = new Map<string, Promise<Spawner | { failure: string }>>();
  /** Spawners that said they are ready (for runs that do not wait for one). */
  const ready = new Map<string, Spawner>();
  const perProcess = new Set<string>();
  const notify = options.notify ?? ((line: string) => process.stderr.write(`${line}\n`));
  let bwrap: string | undefined;

  const startSpawner = (path: string, launch: SandboxLaunch) => {
    const started = Spawner.start({
      place: { kind: "sandbox", bwrap: path, launch },
      execPath: options.execPath ?? process.execPath,
      env: options.spawnerEnv?.() ?? {},
      ...(options.tmpDir === undefined ? {} : { tmpDir: options.tmpDir }),
    });
    spawners.set(launch.key, started);
    void started.then((spawner) => {
      if (spawner instanceof Spawner && spawners.get(launch.key) === started) {
        ready.set(launch.key, spawner);
      }
    });
    return started;
  };

  /** Says once that a policy's spawner could not start; its runs start their own bwrap from now on. */
  const giveUp = (launch: SandboxLaunch, failure: string) => {
    if (perProcess.has(launch.key)) return;
    perProcess.add(launch.key);
    notify(
      `acai: the sandbox helper for policy "${launch.name}" could not start (${failure}); ` +
        "each sandboxed process starts its own bwrap instead (slower)",
    );
  };

  /** The policy's spawner if it is ready; otherwise one is starting (a new one if none is) and this run goes alone. */
  const readySpawner = (path: string, launch: SandboxLaunch): Spawner | undefined => {
    if (options.useSpawner === false || perProcess.has(launch.key)) return undefined;
    const spawner = ready.get(launch.key);
    if (spawner?.running) return spawner;
    if (spawner !== undefined || !spawners.has(launch.key)) {
      ready.delete(launch.key);
      void startSpawner(path, launch).then((started) => {
        if (!(started instanceof Spawner)) giveUp(launch, started.failure);
      });
    }
    return undefined;
  };

  /** The policy's running spawner: the one there is, else a new one (also after one died). */
  const spawnerFor = async (path: string, launch: SandboxLaunch): Promise<Spawner | undefined> => {
    if (options.useSpawner === false || perProcess.has(launch.key)) return undefined;
    const known = spawners.get(launch.key);
    const previous = known ? await known : undefined;
    if (previous instanceof Spawner && previous.running) return previous;
    const started =
      spawners.get(launch.key) === known ? startSpawner(path, launch) : spawners.get(launch.key)!;
    const spawner = await started;
    if (spawner instanceof Spawner) return spawner;
    giveUp(launch, spawner.failure);
    return undefined;
  };

  return {
    async start(target, launch, stdin) {
      bwrap ??= (options.bwrap ?? findBwrap)();
      if (bwrap === undefined) {
        return {
          spawnError:
            `cannot run "${target.command}" in the sandbox (policy "${launch.name}"): bwrap is not on PATH; ` +
            "install bubblewrap (Debian/Ubuntu: apt install bubblewrap) or turn the sandbox off",
        };
      }
      const spawner =
        options.waitForSpawner === false
          ? readySpawner(bwrap, launch)
          : await spawnerFor(bwrap, launch);
      if (spawner) return spawner.run(target, stdin);
      const argv = bwrapArgv(launch.bwrapArgs, target.command, target.args ?? [], [
        "--chdir",
        target.cwd,
      ]);
      const pipe = stdin === "ignore" ? "ignore" : "pipe"; // the runner writes a text itself
      return spawnGroup({ ...target, command: bwrap, args: argv }, pipe, target);
    },
    mode(key) {
      if (perProcess.has(key) || options.useSpawner === false) return "per-process";
      return spawners.has(key) ? "spawner" : "not-started";
    },
    stopAll() {
      for (const started of spawners.values()) {
        void started.then((spawner) => {
          if (spawner instanceof Spawner) spawner.stop();
        });
      }
      spawners.clear();
      ready.clear();
    },
  };
}

let current: SandboxLauncher | undefined;

/** The launcher acai uses: its spawners carry this acai process's marker, so its exit sweep ends them too. */
export function processSandboxLauncher(): SandboxLauncher {
  current ??= createSandboxLauncher({
    spawnerEnv: () => processContainment().envFor({}, "spawner"),
    // A session's first hooks start their own bwrap rather than wait for a spawner (issue 25 item 2).
    waitForSpawner: false,
  });
  return current;
}
