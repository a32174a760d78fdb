import type { AgentOptions } from "./types.js";

/** Consecutive `before_stop` blocks after which the agent stops anyway (hooks.md §2). */
export const DEFAULT_MAX_STOP_BLOCKS = 8;
/** Follow-up steps per turn for pattern answers given after the model finished (AgentOptions). */
const DEFAULT_MAX_PATTERN_FOLLOW_UPS = 3;

/** The bounds a session keeps, read once from its options (each is documented on `AgentOptions`). */
export interface Limits {
  /** Model requests per turn. */
  maxSteps: number;
  maxStopBlocks: number;
  /** Retries of a failed model request, done by the AI SDK. */
  maxModelRetries: number;
  /** Consecutive `retry` verdicts honoured on one `model_request`. */
  maxHookRetries: number;
  maxPatternFollowUps: number;
  /** Pattern lines read per message (undefined: the scanner's default). */
  maxPatterns: number | undefined;
}

export function limitsOf(options: AgentOptions): Limits {
  return {
    maxSteps: Math.max(1, options.maxSteps ?? 50),
    maxStopBlocks: Math.max(1, options.maxStopBlocks ?? DEFAULT_MAX_STOP_BLOCKS),
    maxModelRetries: options.maxModelRetries ?? 2,
    maxHookRetries: Math.max(0, options.maxHookRetries ?? 3),
    maxPatternFollowUps: Math.max(0, options.maxPatternFollowUps ?? DEFAULT_MAX_PATTERN_FOLLOW_UPS),
    maxPatterns: options.maxPatterns,
  };
}
