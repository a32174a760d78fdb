/**
 * What a gate's verdict means for the run, read the same way at every gate
 * of `agent/`: the user's interrupt ends the turn ("aborted"); a hook's stop
 * ends the turn ("hook_stop") and then the session (agent.ts); anything else
 * goes on with the verdict, its stop taken out, for the gate to read its
 * own block or changes. Two gates give an end their own meaning: at
 * `turn_end` the turn is already over, so only a stop counts (it ends the
 * session); at `compact_start` a stop acts as a block (docs/hooks.md).
 */
import type { StopVerdict, Verdict } from "./verdicts.js";

export type GateFlow<V extends Verdict = Verdict> =
  | { kind: "go_on"; verdict: Exclude<V, StopVerdict> | undefined }
  | { kind: "end_turn"; end: { stopReason: "aborted" } }
  | { kind: "end_session"; end: { stopReason: "hook_stop"; message: string } };

/** How a turn or a step ends when a gate says so. */
export type GateEnd = Extract<GateFlow, { end: unknown }>["end"];

/**
 * The interrupt is read first: a stop the user's abort overtook still ends
 * the turn "aborted". `signal` is the turn's; none where the turn is over.
 */
export function gateFlow<V extends Verdict>(
  verdict: V | undefined,
  signal: AbortSignal | undefined,
): GateFlow<V> {
  if (signal?.aborted) return { kind: "end_turn", end: { stopReason: "aborted" } };
  if (verdict?.action === "stop") {
    return { kind: "end_session", end: { stopReason: "hook_stop", message: verdict.reason } };
  }
  return { kind: "go_on", verdict: verdict as Exclude<V, StopVerdict> | undefined };
}
