/**
 * Hooks at work: running ones stay live, each hook's last run is remembered
 * (the hooks panel), a run whose outcome matters gets an inline line, with
 * the user's answer to its question after it.
 */
import type { HookOutcome } from "../../hooks/run/activity.js";
import { inertText } from "../../terminal/inert-text.js";
import { flushAnswers, flushStream, push } from "./items.js";
import type { EventOf, HookLast, ViewState } from "./view.js";

/** Hook outcomes that always get an inline line. */
const NOTABLE: ReadonlySet<HookOutcome> = new Set([
  "block",
  "modify",
  "ask",
  "allow",
  "retry",
  "stop",
  "failed",
  "timeout",
  "aborted",
]);

export function reduceHookStart(state: ViewState, event: EventOf<"hook_start">): ViewState {
  const key = runKey(event);
  const hooks = state.hooks.filter((h) => h.key !== key);
  return {
    ...state,
    hooks: [
      ...hooks,
      {
        key,
        hook: event.hook,
        event: event.event,
        startedAt: event.startedAt,
        ...statusLine(event.statusMessage),
      },
    ],
  };
}

/**
 * A hook's `statusMessage` as the live area shows it: settings text, so made
 * inert (one line; a control character shows as its escape, `\x1b`).
 */
function statusLine(message: string | undefined): { statusMessage?: string } {
  const line = inertText(message ?? "").trim();
  return line === "" ? {} : { statusMessage: line };
}

export function reduceHookEnd(state: ViewState, event: EventOf<"hook_end">, at: number): ViewState {
  const key = runKey(event);
  const hookLast: Record<string, HookLast> = {
    ...state.hookLast,
    [event.hook.id]: {
      name: event.hook.name,
      event: event.event,
      outcome: event.outcome,
      at,
      durationMs: event.durationMs,
      ...(event.detail ? { detail: event.detail } : {}),
    },
  };
  const next = { ...state, hooks: state.hooks.filter((h) => h.key !== key), hookLast };
  const ended = { id: event.hook.id, event: event.event };
  if (!NOTABLE.has(event.outcome) && !event.message) return flushAnswers(next, ended);
  const line = push(flushStream(next), {
    kind: "hook",
    name: event.hook.name,
    event: event.event,
    outcome: event.outcome,
    durationMs: event.durationMs,
    ...(event.detail ? { detail: event.detail } : {}),
    ...(event.message ? { message: event.message } : {}),
  });
  return flushAnswers(line, ended);
}

export function reduceHookWarning(state: ViewState, event: EventOf<"hook_warning">): ViewState {
  return push(state, {
    kind: "warning",
    text: event.message,
    ...(event.hook ? { source: `hook ${event.hook.name}` } : {}),
  });
}

/** One hook's run for one event. */
function runKey(event: EventOf<"hook_start" | "hook_end">): string {
  return `${event.hook.id}\u0000${event.event}`;
}
