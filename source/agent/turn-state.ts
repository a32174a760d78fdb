import type { StopReason, Usage } from "./event-data.js";

/** How a turn ended: `turn_end`'s `stopReason` and `message`. */
export type TurnOutcome = { stopReason: StopReason; message?: string };

/** One turn's facts and accumulators, filled while it runs and reported by `turn_end`. */
export interface TurnState {
  turn: number;
  /** The `promptId` of the turn's events. */
  promptId: string;
  /**
   * The turn's user prompt as it stands in the conversation (a hook may have
   * replaced it); after deferred calls of a resumed run, it joins the
   * conversation once they ran.
   */
  prompt: string;
  /** Where that prompt's message is in the conversation, once it joined it. */
  promptAt?: number;
  /** The text of the last step that answered. */
  text: string;
  usage: Usage;
  /** The last step started. */
  steps: number;
  /** `stop_request` blocks so far in this turn (bounded by `maxStopBlocks`). */
  stopBlocks: number;
}
