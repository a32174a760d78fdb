/**
 * `acai-agent`: acai's agent loop for programs (docs/sdk.md). `query()` runs
 * a session and yields its events; hooks can be functions of the program.
 */
export type { AgentEvent } from "../agent/events.js";
export type { CallbackAnswer } from "../hooks/contract/definition.js";
export type {
  AskRequest,
  HookActivityEvent,
  InterceptedEvent,
  UserAnswer,
} from "../hooks/run/activity.js";
export type { CallbackHooks, CallbackMatcher, HookCallback } from "./callback-hooks.js";
export { type QueryInput, type QueryOptions, query } from "./query.js";
