/** Values the `acai hooks test` samples of several events share. */
import type { SampleContext } from "./row.js";

export const SAMPLE_SUBAGENT = { agentId: "a3f9c2e1-sample", agentType: "general-purpose" };

export const SAMPLE_USAGE = { inputTokens: 1843, outputTokens: 212, totalTokens: 2055 };

export const SAMPLE_FINAL_TEXT = "I added tests for the greeting module; all 88 tests pass.";

/** The tool call every tool event's sample is about. */
export function sampleCall(s: SampleContext) {
  return { turn: 1, step: 2, toolCallId: "call_test_1", toolName: s.toolName, input: s.input };
}
