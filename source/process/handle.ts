/**
 * A started child as the runner (runner.ts) and the long-lived starter
 * (long-lived.ts) see it, however it was started: a `ChildProcess` of acai's
 * own, or a child forked by a sandbox spawner (spawner.ts) whose stdio are
 * sockets and whose exit arrives on the spawner's control channel.
 */
import type { EventEmitter } from "node:events";
import type { Readable, Writable } from "node:stream";

/** What `ChildProcess` offers and the runner uses: `exit` (code, signal) and `error` events. */
export interface ChildHandle extends EventEmitter {
  /** Its pid where it was started (inside a PID namespace for a sandboxed child); for reports. */
  readonly pid?: number | undefined;
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
}

export interface Spawned {
  child: ChildHandle;
  /** Its containment run id (containment.ts), when acai marks its children. */
  runId: string | undefined;
  /** Signals its whole process group (ESRCH ignored). */
  kill(signal: NodeJS.Signals): void;
  /** Kills what escaped the run inside its sandbox's namespace (setsid + an empty environment included). */
  sweep?(): void;
  /** Set once the child was lost with the sandbox spawner that ran it: why, for the result. */
  lost?(): string | undefined;
}

export type SpawnOutcome = Spawned | { spawnError: string };
