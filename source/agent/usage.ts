/**
 * Token usage arithmetic. Its own module with no runtime imports, so the REPL
 * can add usage up without loading the model layer (model-step.ts imports the
 * AI SDK).
 */
import type { Usage } from "./event-data.js";

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}
