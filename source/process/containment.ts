/**
 * Containment of everything one acai process starts (hooks.md §5): every
 * child of the runner carries acai's marker (marker.ts); a stopped run's
 * escapees are swept by its run marker; at acai's exit — normal end, a
 * forced exit, `process.exit` anywhere — everything carrying the marker is
 * SIGKILLed (sweep.ts); if acai is killed outright the watchdog does it
 * (watchdog.ts).
 *
 * The marker is the containment that works everywhere there is a /proc:
 * Node cannot call unshare(2) or prctl(PR_SET_CHILD_SUBREAPER) without
 * native code, and a delegated cgroup is not available to an unprivileged
 * user everywhere. It catches setsid/double-fork/setpgid escapees, which keep
 * their environment; it misses a process that drops its environment
 * (`env -i`, execve with a fresh one) and anything handed to another service
 * (systemd-run, at, a running tmux server); without /proc (macOS) only the
 * process-group kills remain.
 *
 * Where bubblewrap works, sandboxed runs (RunOptions.sandbox) and plugins'
 * children also run in a PID namespace of their own that dies with acai,
 * SIGKILL included, whatever they did with their environment (bwrap.ts,
 * sandbox-launch.ts, decision 0017); `containmentInForce()` says which
 * holds. The marker is kept inside the namespace too: it still sweeps a
 * stopped run's escapees, and it is the fallback where bwrap is missing or
 * user namespaces are off.
 */
import { anyRunEntry, inheritedMarkers, newMarkerName, runEntry } from "./marker.js";
import { sweepMarked } from "./sweep.js";
import { startWatchdog, type Watchdog } from "./watchdog.js";

export interface Containment {
  /** `ACAI_RUN_<id>`: the variable every child carries. */
  readonly markerName: string;
  /** A fresh id for one run. */
  nextRunId(): string;
  /** The child's environment: `env` plus the inherited markers and this run's. */
  envFor(env: Readonly<Record<string, string>>, runId: string): Record<string, string>;
  /**
   * Called before each spawn: registers the exit sweep the first time, and starts the watchdog
   * before the first spawn on the host. A `namespace` spawn (bwrap with `--unshare-pid
   * --die-with-parent`, bwrap.ts) needs none: the kernel ends its whole tree with acai,
   * SIGKILL included (decision 0058).
   */
  beforeSpawn(place?: SpawnPlace): void;
  /** SIGKILLs what is left of one run (its setsid/double-fork escapees). */
  sweepRun(runId: string): number;
  /** SIGKILLs everything this acai started that is still running. */
  sweepAll(): number;
}

/** Where a child starts: on the host, or in a PID namespace that dies with acai. */
type SpawnPlace = "host" | "namespace";

export interface ContainmentOptions {
  markerName?: string;
  /** Markers of the acai processes above this one (`ACAI_RUN_*` of its own environment). */
  inherited?: Readonly<Record<string, string>>;
  /** Default `/proc`. */
  procDir?: string;
  /** Node binary for the watchdog; without it no watchdog is started. */
  watchdogExecPath?: string;
  /** Registers the sweep to run when acai exits (default: none). */
  onExit?: (sweep: () => void) => void;
}

export function createContainment(options: ContainmentOptions = {}): Containment {
  const markerName = options.markerName ?? newMarkerName();
  const inherited = { ...options.inherited };
  delete inherited[markerName];
  const procDir = options.procDir ?? "/proc";
  let runs = 0;
  let started = false;
  let watchdogAsked = false;
  let watchdog: Watchdog | undefined;
  const exclude = (): number[] => {
    const pid = watchdog?.pid();
    return pid === undefined ? [process.pid] : [process.pid, pid];
  };

  const sweepAll = (): number => {
    if (!started) return 0; // nothing was ever spawned: no /proc scan
    return sweepMarked(anyRunEntry(markerName), { procDir, exclude: exclude() });
  };

  return {
    markerName,
    nextRunId: () => String(++runs),
    envFor: (env, runId) => ({ ...env, ...inherited, [markerName]: runId }),
    beforeSpawn(place = "host") {
      if (!started) {
        started = true;
        options.onExit?.(() => {
          sweepAll();
        });
      }
      if (place === "namespace" || watchdogAsked) return;
      watchdogAsked = true;
      if (options.watchdogExecPath !== undefined) {
        watchdog = startWatchdog({
          execPath: options.watchdogExecPath,
          entry: anyRunEntry(markerName),
          procDir,
        });
      }
    },
    sweepRun: (runId) => sweepMarked(runEntry(markerName, runId), { procDir, exclude: exclude() }),
    sweepAll,
  };
}

let current: Containment | undefined;

/**
 * This acai process's containment (the composition root for the default
 * runner): a fresh marker, the markers inherited from an acai above, a
 * watchdog (Python where /usr/bin/python3 is, else Node), and the sweep at `process.on("exit")`.
 */
export function processContainment(): Containment {
  current ??= createContainment({
    inherited: inheritedMarkers(process.env),
    watchdogExecPath: process.execPath,
    onExit: (sweep) => process.once("exit", sweep),
  });
  return current;
}
