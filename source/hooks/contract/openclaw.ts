/**
 * OpenClaw's 13 plugin hooks (`api.registerHook({ event, handler, priority })`)
 * on acai's events (docs/plugins.md "Coming from OpenClaw", decision 0030).
 *
 * OpenClaw runs two kinds of hook. *Void* hooks observe: their handlers run
 * in parallel, a throw is logged and the others go on, and the caller does not
 * wait (fire-and-forget) — acai registers them `async` (started with the
 * event, never waited for, answer unused). *Modifying* hooks run one after
 * another, lower priority first, and their answer counts — acai runs them in
 * its gate chain.
 *
 * acai has one session per process, so OpenClaw's gateway (its long-running
 * host process) starts and stops with it: `gateway-start` is the session's
 * start (not the restart after a compaction), `gateway-stop` its end.
 * acai's reply to its user is streamed, never a finished message to hold
 * back; the messages acai really sends are those to other agents, so
 * `message-sending` is the gate before one of those goes out.
 */
import type { HookEventName, HookMatcher } from "./definition.js";
import { OPENCLAW_EVENTS } from "./events/names.js";

/** How one OpenClaw hook runs in acai (its events are the rows that name it, events/*.ts). */
interface OpenClawKind {
  /** OpenClaw's void hooks: parallel, not waited for, their answers unused. */
  void: boolean;
  matcher?: HookMatcher;
  /** OpenClaw's `direction` of a message hook. */
  direction?: "received" | "sending" | "sent";
}

/** What one OpenClaw hook is in acai. */
export interface OpenClawHook extends OpenClawKind {
  /** acai's events it fires on (after-tool-call: a tool that returned and one that failed). */
  events: readonly HookEventName[];
}

/** Session starts of a new or resumed session; not the restart after a compaction. */
const SESSION_BEGINS: HookMatcher = { source: "startup|resume" };

/** OpenClaw's hook names (with `-`; `_` is read the same): void or modifying, and more. */
export const OPENCLAW_HOOKS: Readonly<Record<string, OpenClawKind>> = {
  "gateway-start": { void: true, matcher: SESSION_BEGINS },
  "gateway-stop": { void: true },
  "session-start": { void: true, matcher: SESSION_BEGINS },
  "session-end": { void: true },
  "before-agent-start": { void: false },
  "message-received": { void: false, direction: "received" },
  "message-sending": { void: false, direction: "sending" },
  "message-sent": { void: true, direction: "sent" },
  "before-tool-call": { void: false },
  "after-tool-call": { void: true },
  "before-compaction": { void: false },
  "after-compaction": { void: true },
  "tool-result-persist": { void: false },
};

/** OpenClaw's name of a registration's event (`before-tool-call`), if acai knows it. */
export function openClawName(raw: unknown): string | undefined {
  const name = typeof raw === "string" ? raw.replaceAll("_", "-") : "";
  return Object.hasOwn(OPENCLAW_HOOKS, name) && Object.hasOwn(OPENCLAW_EVENTS, name)
    ? name
    : undefined;
}

/** OpenClaw's hook `name` (either separator), or why acai does not take it. */
export function openClawHook(raw: unknown): OpenClawHook | string {
  const name = openClawName(raw);
  const kind = name === undefined ? undefined : OPENCLAW_HOOKS[name];
  const events = name === undefined ? undefined : OPENCLAW_EVENTS[name];
  if (kind === undefined || events === undefined) {
    return `OpenClaw hook ${JSON.stringify(raw)} is unknown; OpenClaw's hooks are ${Object.keys(OPENCLAW_HOOKS).join(", ")}`;
  }
  return { ...kind, events };
}
