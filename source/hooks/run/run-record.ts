/** What one hook run did, whichever way it ran (spawned or persistent). */
import type { Decision } from "../contract/decision.js";
import type { HookEventName } from "../contract/definition.js";

/** Everything one run did: what the toolkit's `acai hooks test` prints and the audit log keeps. */
export interface HookRunRecord {
  hookId: string;
  event: HookEventName;
  /** What the hook was sent: its stdin, or a persistent hook's request line. */
  stdin: string;
  command: string;
  args: readonly string[];
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** What it answered: its stdout, or a persistent hook's answer line. */
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
  aborted: boolean;
  /** Killed because stdout or stderr (a persistent hook: an answer line) passed the cap. */
  outputLimit: boolean;
  spawnError?: string;
  /** It ran inside the OS sandbox (a command hook with a sandbox policy; for the audit log). */
  sandboxed?: boolean;
  /** The tool call of a tool event (for the audit log). */
  toolCallId?: string;
  /** The hook's answer, before the failure policy. */
  decision: Decision;
}
