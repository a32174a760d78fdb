/**
 * acai's spawn helper (decision 0041): the runner's unsandboxed children
 * (hooks, tools, Bash) are forked by a small long-lived Node process — the
 * sandbox's spawner script run on the host (spawner.ts, spawner-script.ts) —
 * so acai's main thread never forks its own, possibly large, process: Node's
 * fork copies the page tables of the whole process, and that grows with
 * acai's memory (1.5 ms at 47 MB, 2–2.3 ms at 434 MB, 6–7 ms at 2.9 GB).
 * Where /usr/bin/python3 runs, the helper is the same protocol in Python
 * (spawn-helper-python.ts, decision 0056), whose `posix_spawn` does not copy
 * page tables at all: a hook through it costs about what a bare spawn costs.
 *
 * One helper per runner (per acai process), started in the background at the
 * first run; until it is ready, and whenever it cannot serve, a run is
 * spawned directly as before — an unsandboxed run is the same process either
 * way, so falling back is safe (sandboxed runs never come here). A helper
 * that died ends its runs as killed (`lost`) and is started again at the next
 * run, at most `maxStarts` times per acai process. It dies with acai: its
 * stdin is a pipe from acai, and at EOF it SIGKILLs its children's groups and
 * exits; it carries acai's containment marker, so acai's exit sweep and the
 * watchdog reach it too.
 */
import { processContainment } from "./containment.js";
import type { SpawnOutcome } from "./handle.js";
import type { SpawnTarget } from "./spawn.js";
import { type SandboxStdin, Spawner } from "./spawner.js";
import { SYSTEM_PYTHON } from "./spawner-kind.js";
import type { SpawnerPlace } from "./spawner-launch.js";

export interface SpawnHelper {
  /** Starts `target` (its environment complete) through the helper; undefined: spawn it directly. */
  start(target: SpawnTarget, stdin: SandboxStdin): Promise<SpawnOutcome> | undefined;
  /** Starts the helper if it is not running; true once it serves runs. */
  ready(): Promise<boolean>;
  /** The running helper's pid (tests). */
  pid(): number | undefined;
  /** Which helper runs (tests, benchmarks). */
  kind(): "python" | "node" | undefined;
  /** Stops it (what runs through it is killed); the next run may start a new one. */
  stop(): void;
}

export interface SpawnHelperOptions {
  /** The Node that runs the helper (default `process.execPath`). */
  execPath?: string;
  /** The helper's own environment (acai's containment marker). */
  env?: () => Readonly<Record<string, string>>;
  /** Parent of the private socket folder (default: the OS temp folder). */
  tmpDir?: string;
  /** How many times per acai process a helper may be started (default 5); then runs spawn directly. */
  maxStarts?: number;
  /**
   * The Python that runs the Python helper (decision 0056; default `/usr/bin/python3`, never
   * looked up on PATH); `false`: the Node helper only. When it cannot start, the Node one is used.
   */
  python?: string | false;
  /** Says why the Python helper was not used (acai: on stderr with ACAI_DEBUG=1). */
  debug?: (line: string) => void;
}

type State =
  | { kind: "none" }
  | { kind: "starting"; started: Promise<boolean> }
  | { kind: "running"; spawner: Spawner };

export function createSpawnHelper(options: SpawnHelperOptions = {}): SpawnHelper {
  const maxStarts = options.maxStarts ?? 5;
  let starts = 0;
  let state: State = { kind: "none" };
  let python = options.python === undefined ? SYSTEM_PYTHON : options.python;

  const startOne = (place: SpawnerPlace) =>
    Spawner.start({
      place,
      execPath: options.execPath ?? process.execPath,
      env: options.env?.() ?? {},
      ...(options.tmpDir === undefined ? {} : { tmpDir: options.tmpDir }),
    });

  /** The Python helper if it starts (once it failed, never again in this process), else the Node one. */
  const startEither = async (): Promise<Spawner | { failure: string }> => {
    if (python === false) return startOne({ kind: "host" });
    const tried = await startOne({ kind: "host", python });
    if (tried instanceof Spawner) return tried;
    options.debug?.(
      `spawn helper: the Python helper (${python}) did not start (${tried.failure}); using the Node one`,
    );
    python = false;
    return startOne({ kind: "host" });
  };

  const launch = (): Promise<boolean> => {
    starts += 1;
    const started = startEither().then((spawner) => {
      if (state.kind !== "starting" || state.started !== started) {
        if (spawner instanceof Spawner) spawner.stop(); // stopped while it started
        return false;
      }
      state = spawner instanceof Spawner ? { kind: "running", spawner } : { kind: "none" };
      return spawner instanceof Spawner;
    });
    state = { kind: "starting", started };
    return started;
  };

  /** The running helper, or undefined (then one is started in the background when allowed). */
  const current = (): Spawner | undefined => {
    switch (state.kind) {
      case "running":
        if (state.spawner.running) return state.spawner;
        state = { kind: "none" };
        return current();
      case "starting":
        return undefined;
      case "none":
        if (starts < maxStarts) void launch();
        return undefined;
      default:
        return state satisfies never;
    }
  };

  return {
    start(target, stdin) {
      return current()?.run(target, stdin);
    },
    ready() {
      if (current() !== undefined) return Promise.resolve(true);
      return state.kind === "starting" ? state.started : Promise.resolve(false);
    },
    pid() {
      return state.kind === "running" && state.spawner.running ? state.spawner.pid : undefined;
    },
    kind() {
      return state.kind === "running" && state.spawner.running
        ? state.spawner.helperKind
        : undefined;
    },
    stop() {
      if (state.kind === "running") state.spawner.stop();
      state = { kind: "none" };
    },
  };
}

let current: SpawnHelper | undefined;

/**
 * The helper acai's runner uses, as runner options: it carries this acai
 * process's marker, so acai's exit sweep ends it too. `ACAI_SPAWN_HELPER=0`
 * in acai's environment turns it off (acai forks every child itself),
 * `ACAI_SPAWN_HELPER=node` keeps it to the Node helper (no Python).
 */
export function processSpawnHelper(): { helper?: SpawnHelper } {
  const setting = process.env.ACAI_SPAWN_HELPER;
  if (setting === "0") return {};
  current ??= createSpawnHelper({
    env: () => processContainment().envFor({}, "spawn-helper"),
    ...(setting === "node" ? { python: false } : {}),
    debug: (line) => {
      if (process.env.ACAI_DEBUG === "1") process.stderr.write(`acai: debug: ${line}\n`);
    },
  });
  return { helper: current };
}
