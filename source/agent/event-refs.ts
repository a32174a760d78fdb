/**
 * The shared base of `AgentEvent` variants (events.ts): where in the run an
 * event happened — its turn, its step, its tool call.
 */

/**
 * Where in the run an event happened: the fields its variants share. `turn`
 * counts the session's turns from 1; `promptId` is one id per user prompt,
 * the same on every event of its turn that hooks see (hooks' `prompt_id`).
 */
export interface TurnRef {
  turn: number;
  promptId?: string;
}

/** An event of one step (one model request and what follows from it), counted from 1 in its turn. */
export interface StepRef extends TurnRef {
  step: number;
}

/** An event of one tool call of a step: the model's id for the call. */
export interface ToolCallRef extends StepRef {
  toolCallId: string;
}
