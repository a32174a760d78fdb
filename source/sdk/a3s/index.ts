/**
 * A3S's hook API with A3S's names (`acai-agent/hooks` re-exports it):
 * `HookEngine`, `Hook`, `HookMatcher`, `HookResponse`, `HookEventType` and
 * the payload types. docs/plugins.md "Coming from A3S".
 */
export { Hook, HookMatcher, HookResponse } from "./builders.js";
export { HookEngine, type HookShape } from "./engine.js";
export {
  type GenerateEndEvent,
  type GenerateStartEvent,
  type HookAction,
  type HookConfig,
  type HookEvent,
  type HookEventPayload,
  HookEventType,
  type HookHandler,
  type HookResult,
  type PostToolUseEvent,
  type PreToolUseEvent,
  type SessionEndEvent,
  type SessionStartEvent,
  type ToolArgs,
  type ToolCallInfo,
} from "./types.js";
