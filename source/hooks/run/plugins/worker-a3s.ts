/**
 * A3S inside a plugin's worker (worker.ts loads it before the plugin): A3S
 * registers a hook and its handler apart, by id, and they are paired when
 * register() returns, each hook keeping the place where it was registered;
 * an exported `HookEngine` (acai-agent/hooks) is read the same way. Also the
 * worker's registration types. Self-contained like worker.ts (no imports):
 * it runs as TypeScript source too.
 */

export type Handler = (argument: unknown, signal: AbortSignal) => unknown;

/** What a registration is, as plain data for the host. */
export interface Registered {
  shape: "acai" | "openclaw" | "a3s" | "pattern" | "relay";
  name: string | undefined;
  events: unknown[];
  options: unknown;
}

/** A registration in the order it was made; an A3S hook holds its place until its handler is known. */
export type Entry = { handler: Handler; registration: Registered } | { a3s: string };

/** An exported A3S `HookEngine`: its hooks and handlers. */
export interface EngineLike {
  all_hooks(): unknown[];
  get_handler(id: string): unknown;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

export function engineOf(value: unknown): EngineLike | undefined {
  const v = record(value);
  return typeof v.all_hooks === "function" && typeof v.get_handler === "function"
    ? (value as EngineLike)
    : undefined;
}

/** An A3S handler: a function, or an object with `handle` (called with itself as `this`). */
function a3sHandlerFunction(handler: unknown): unknown {
  if (typeof handler === "function") return handler;
  if (typeof handler === "object" && handler !== null) {
    const handle = (handler as { handle?: unknown }).handle;
    if (typeof handle === "function") return (event: unknown) => handle.call(handler, event);
  }
  return undefined;
}

export interface Pairing {
  entries: readonly Entry[];
  a3sHooks: ReadonlyMap<string, Record<string, unknown>>;
  a3sHandlers: ReadonlyMap<string, unknown>;
  /** A plain-data copy of what the plugin passed. */
  plain: (value: unknown) => unknown;
}

/** The registrations in order with their handlers, each A3S hook paired with its handler where it was registered. */
export function pairA3s(pairing: Pairing): {
  registrations: Registered[];
  handlers: Handler[];
  problems: string[];
} {
  const { entries, a3sHooks, a3sHandlers, plain } = pairing;
  const registrations: Registered[] = [];
  const handlers: Handler[] = [];
  const problems: string[] = [];
  for (const entry of entries) {
    if (!("a3s" in entry)) {
      handlers.push(entry.handler);
      registrations.push(entry.registration);
      continue;
    }
    const id = entry.a3s;
    const hook = a3sHooks.get(id) ?? {};
    const handler = a3sHandlerFunction(a3sHandlers.get(id));
    if (handler === undefined) {
      problems.push(`A3S hook "${id}" has no handler (register_handler) (ignored)`);
      continue;
    }
    const { id: _id, event_type, ...rest } = hook;
    handlers.push(handler as Handler);
    registrations.push({
      shape: "a3s",
      name: id,
      events: [plain(event_type)],
      options: plain(rest),
    });
  }
  for (const id of a3sHandlers.keys()) {
    if (!a3sHooks.has(id)) problems.push(`A3S handler "${id}" has no hook (register) (ignored)`);
  }
  return { registrations, handlers, problems };
}
