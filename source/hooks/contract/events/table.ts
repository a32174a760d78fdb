/**
 * The hook events: one module each (`before-tool.ts` …) states everything
 * acai knows about its event; this file assembles them, and every other module
 * reads the table (payload, matching, plan, fold, the dialects' names, the SDK's
 * schemas and types, `acai hooks test` and `acai hooks init`). Adding an event
 * is one module, its line here, and the place the agent emits its AgentEvent
 * (CONTRIBUTING.md, "Adding a hook event").
 *
 * Codex's HOOK_EVENT_NAMES and per-event modules and gemini-cli's per-event
 * types were the models.
 */
import { afterAgent } from "./after-agent.js";
import { afterModel } from "./after-model.js";
import { afterTool } from "./after-tool.js";
import { afterToolFailure } from "./after-tool-failure.js";
import { beforeModel } from "./before-model.js";
import { beforeStop } from "./before-stop.js";
import { beforeTool } from "./before-tool.js";
import { idle } from "./idle.js";
import { messageReceived } from "./message-received.js";
import { messageSent } from "./message-sent.js";
import { notification } from "./notification.js";
import { output } from "./output.js";
import { pattern } from "./pattern.js";
import { permissionRequest } from "./permission-request.js";
import { postCompact } from "./post-compact.js";
import { preCompact } from "./pre-compact.js";
import type { EventRow } from "./row.js";
import { sessionEnd } from "./session-end.js";
import { sessionStart } from "./session-start.js";
import { subagentStart } from "./subagent-start.js";
import { subagentStop } from "./subagent-stop.js";
import { userPrompt } from "./user-prompt.js";

export type { EventRow } from "./row.js";

/** Every event's module, in the order documentation and messages list them. */
export const EVENT_MODULES = [
  sessionStart,
  userPrompt,
  beforeModel,
  afterModel,
  beforeTool,
  permissionRequest,
  afterTool,
  afterToolFailure,
  beforeStop,
  afterAgent,
  subagentStart,
  subagentStop,
  preCompact,
  postCompact,
  notification,
  messageReceived,
  messageSent,
  sessionEnd,
  output,
  pattern,
  idle,
] as const;

type EventModules = (typeof EVENT_MODULES)[number];

export type HookEventName = EventModules["name"];

/** Each event's module by its name, with its own types (the SDK's payload types come from these). */
export type EventModuleOf = { [M in EventModules as M["name"]]: M };

/**
 * Widens a module to a row: a row is only ever called with its own agent event
 * (`HOOK_EVENT_OF` picks it by that event's type), which the type system
 * cannot follow through a lookup.
 */
const asRow = (module: EventModules): EventRow => module as unknown as EventRow;

export const HOOK_EVENT_TABLE: Readonly<Record<HookEventName, EventRow>> = Object.fromEntries(
  EVENT_MODULES.map((module) => [module.name, asRow(module)]),
) as Record<HookEventName, EventRow>;

/** Every hook event, in the table's order (the order documentation and messages list them). */
export const HOOK_EVENTS: readonly HookEventName[] = EVENT_MODULES.map((module) => module.name);

/** The row of an event. */
export function eventRow(event: HookEventName): EventRow {
  return HOOK_EVENT_TABLE[event];
}
