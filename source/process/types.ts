/**
 * The one child-process runner's contract. Bash, dynamic tools and hooks all go
 * through `ProcessRunner`; tests may pass their own.
 */
/**
 * Which spawner forks a sandbox policy's processes (decision 0059): the
 * Python one where /usr/bin/python3 is usable inside the sandbox, else Node.
 */
export type SpawnerKind = "python" | "node";

/** How to start a process inside the OS sandbox (built from the policy by source/sandbox/). */
export interface SandboxLaunch {
  /** Stable key of the policy and spawner kind (launch-key.ts): one long-lived spawner per key per acai process. */
  readonly key: string;
  /** bubblewrap options — everything between `bwrap` and the command — from the policy. */
  readonly bwrapArgs: readonly string[];
  /** The policy's name, for ACAI_SANDBOX_POLICY and reports. */
  readonly name: string;
  /** The spawner it asks for (spawner-kind.ts); a Python one that does not start falls back to Node. */
  readonly helper: SpawnerKind;
  /**
   * A run's CLAUDE_ENV_FILE is kept in the spawner's namespace and written back at its exit
   * (kept-env-files.ts, decision 0069) — while nothing else ran in that spawner; otherwise the
   * run goes to `otherwise`, the policy that may write the file's folder.
   */
  readonly keepsEnvFile?: { readonly otherwise: SandboxLaunch };
}

export interface RunOptions {
  /** Executable to run (looked up on PATH when not absolute). */
  command: string;
  args?: readonly string[];
  cwd: string;
  /** The complete environment of the child (nothing is inherited implicitly). */
  env: Readonly<Record<string, string>>;
  /** Written to stdin, then stdin is closed. EPIPE/early close by the child is ignored. */
  stdin?: string;
  /** Kill the whole process group after this long (TERM, then KILL after `killGraceMs`). */
  timeoutMs?: number;
  /** Aborting kills the whole process group at once. */
  signal?: AbortSignal;
  /** Cap per stream in bytes (default 1 MiB). */
  maxOutputBytes?: number;
  /** What to do when a stream passes its cap: keep running and drop the rest, or kill the group. */
  onOutputLimit?: "truncate" | "kill";
  /** Grace between TERM and KILL (default 1000 ms). */
  killGraceMs?: number;
  /**
   * Also when the run ends by itself, kill what it started outside its process
   * group (setsid, double fork) — found by its containment marker, a /proc scan
   * of about 2 ms. Without it such children live until acai exits.
   */
  sweepOnExit?: boolean;
  /** Run inside the OS sandbox in a PID namespace of its own policy (sandbox-launch.ts). */
  sandbox?: SandboxLaunch;
}

export interface RunResult {
  /** Exit code of the direct child; null when it died of a signal or never started. */
  exitCode: number | null;
  /** Signal that ended the direct child, if any. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  aborted: boolean;
  /** Which streams passed `maxOutputBytes`. */
  truncated: { stdout: boolean; stderr: boolean };
  durationMs: number;
  /** Set when the process could not be started at all (ENOENT, EACCES, ...). */
  spawnError?: string;
}

export type ProcessRunner = (options: RunOptions) => Promise<RunResult>;
