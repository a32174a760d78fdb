/**
 * The worker thread one plugin runs in (hooks.md §6.3, host.ts starts it).
 * It imports the plugin, calls its `register(api)`, reports the registrations
 * (plain data: what the handler listens to and how), then calls handlers on
 * request. Self-contained on purpose (only `node:` imports and erasable
 * types), so it runs as TypeScript source too.
 *
 * Messages in: `call` (id, registration, argument), `abort` (id), `ping`, `reply` (id, value | error).
 * Messages out: `registered` | `broken`, `answer` (id, json | text | error), `pong`,
 * `request` (id, op, args: a relay handler's `ctx.memory`, answered by the host),
 * `late` (a registration made after `register()` returned: its index and
 * what it registered) and `late-problem`.
 *
 * `workerData.kind` "relay-config": the file is agent-relay's `relay.config.ts`
 * (a default export `{ patterns, hooks, … }`, no `register`), read by
 * relay-shape.ts, which also calls every relay-shaped handler.
 *
 * Before the plugin is imported, its children's containment is put in place
 * (worker-children.ts) and A3S's pairing of hooks and handlers loaded
 * (worker-a3s.ts). A plugin is trusted code; containment holds what it
 * starts, not what it deliberately undoes.
 */
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import type * as RelayShape from "./relay-shape.js";
import type * as A3sShape from "./worker-a3s.js";
import type { Entry, Handler, Registered } from "./worker-a3s.js";
import type * as Children from "./worker-children.js";

type Fn = (...args: unknown[]) => unknown;

// What the plugin prints never reaches acai's terminal or its `-p` output (acai's host does not
// read these streams): dropped here, so nothing piles up either.
process.stdout.write = () => true;
process.stderr.write = () => true;

const port = parentPort;
if (port === null) throw new Error("acai's plugin worker must run in a worker thread");
const file = String((workerData as { file: string }).file);
const kind = (workerData as { kind?: string }).kind;

/** relay-shape.ts beside this file (.ts when this runs as source); loaded before the plugin is. */
let relay: typeof RelayShape | undefined;
async function loadRelayShape(): Promise<typeof RelayShape> {
  // Each target a literal of its own: the bundle follows them (scripts/bundle-urls.mjs).
  const own = import.meta.url.endsWith(".ts")
    ? new URL("./relay-shape.ts", import.meta.url)
    : new URL("./relay-shape.js", import.meta.url);
  relay ??= (await import(own.href)) as typeof RelayShape;
  return relay;
}

/** worker-a3s.ts, set by loadSiblings() before the plugin is imported. */
let a3s: typeof A3sShape;

/**
 * The worker's own modules beside it (.ts when this runs as source), each a
 * literal the bundle follows: the children's containment is in place before
 * the plugin is imported.
 */
async function loadSiblings(): Promise<void> {
  const source = import.meta.url.endsWith(".ts");
  const contain = source
    ? new URL("./worker-children.ts", import.meta.url)
    : new URL("./worker-children.js", import.meta.url);
  const pairing = source
    ? new URL("./worker-a3s.ts", import.meta.url)
    : new URL("./worker-a3s.js", import.meta.url);
  const [children, shape] = await Promise.all([
    import(contain.href) as Promise<typeof Children>,
    import(pairing.href) as Promise<typeof A3sShape>,
  ]);
  children.containChildren((workerData as { children?: Children.Children }).children);
  a3s = shape;
}

const handlers: Handler[] = [];
const problems: string[] = [];
let open = true;

/** A plain-data copy of what the plugin passed (functions and cycles dropped), or a note. */
function plain(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (error) {
    return { unreadable: String((error as Error).message) };
  }
}

/** Registrations in the order they were made; an A3S hook's place is kept until its handler is known. */
const entries: Entry[] = [];
/** What was registered, by index (set once register() returned): relay-shaped calls read it. */
let registered: Registered[] = [];

/** A problem with a registration: reported with the load, or — after register() returned — at once. */
function problem(text: string): void {
  if (open) problems.push(text);
  else port?.postMessage({ type: "late-problem", problem: text });
}

function add(
  shape: Registered["shape"],
  name: unknown,
  events: unknown[],
  handler: unknown,
  options: unknown,
) {
  if (typeof handler !== "function") {
    problem(`a ${shape} registration has no handler function (ignored)`);
    return;
  }
  const registration: Registered = {
    shape,
    name: typeof name === "string" ? name : undefined,
    events: plain(events) as unknown[],
    options: plain(options),
  };
  if (open) {
    entries.push({ handler: handler as Handler, registration });
    return;
  }
  // After register() returned (OpenClaw's dynamic addition): acai adds it to the running session.
  handlers.push(handler as Handler);
  port?.postMessage({ type: "late", index: handlers.length - 1, registration });
}

/**
 * A3S registers a hook and its handler apart, by id; they are paired when
 * register() returns, the hook keeping the place where it was registered.
 */
const a3sHooks = new Map<string, Record<string, unknown>>();
const a3sHandlers = new Map<string, unknown>();

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

const api = {
  /** acai's own: any event name acai accepts, options as hooks.md §6.3. */
  on(event: unknown, handler: unknown, options?: unknown) {
    const opts = record(options);
    if (typeof event === "string" && relay?.RELAY_ON_NAMES.includes(event)) {
      add("relay", opts.name, [event], handler, { ...opts, relay: event });
    } else add("acai", opts.name, [event], handler, options);
  },
  /** OpenClaw's `api.registerHook({ event, handler, priority })`. */
  registerHook(registration: unknown) {
    const r = record(registration);
    const { handler, ...rest } = r;
    add("openclaw", r.name, [r.event], handler, rest);
  },
  /** A3S's `engine.register(hook)`: `{ id, event_type, matcher, config }`. */
  register(hook: unknown) {
    const h = record(hook);
    if (typeof h.id !== "string") {
      problem("an A3S hook without a string id (ignored)");
      return;
    }
    if (!open) {
      problem(`A3S hook "${h.id}" was registered after register() returned (ignored)`);
      return;
    }
    if (a3sHooks.has(h.id))
      problems.push(`A3S hook "${h.id}" was registered twice (the later one is used)`);
    else entries.push({ a3s: h.id });
    a3sHooks.set(h.id, h);
  },
  /** A3S's `engine.register_handler(id, { handle })` (or a function). */
  register_handler(id: unknown, handler: unknown) {
    a3sHandlers.set(String(id), handler);
  },
  /** agent-relay's `relay.pattern(namespace, handler)`: the `pattern` event, by namespace. */
  pattern(namespace: unknown, handler: unknown, options?: unknown) {
    const opts: Record<string, unknown> = { ...record(options), namespace };
    // agent-relay's `(target, message, ctx)`; acai's own is `(event, signal)`.
    if (typeof handler === "function" && handler.length >= 3) {
      add("relay", opts.name, ["pattern"], handler, { ...opts, relay: "pattern" });
    } else add("pattern", opts.name, ["pattern"], handler, opts);
  },
};

/** An exported A3S `HookEngine` (acai-agent/hooks): its hooks and handlers, as if registered through the api. */
function registerEngine(engine: A3sShape.EngineLike): void {
  for (const hook of engine.all_hooks()) {
    api.register(hook);
    const id = record(hook).id;
    const handler = typeof id === "string" ? engine.get_handler(id) : undefined;
    if (handler !== undefined) api.register_handler(id, handler);
  }
}

/** The registrations in order, each A3S hook paired with its handler (worker-a3s.ts). */
function pairA3s(): Registered[] {
  const paired = a3s.pairA3s({ entries, a3sHooks, a3sHandlers, plain });
  handlers.push(...paired.handlers);
  problems.push(...paired.problems);
  return paired.registrations;
}

function message(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** A relay.config: its default export read into registrations; its settings go to the host. */
async function loadRelayConfig(module: Record<string, unknown>): Promise<void> {
  const read = (await loadRelayShape()).readRelayConfig(module.default, file);
  for (const r of read.registrations) add("relay", r.name, [r.event], r.handler, r.options);
  problems.push(...read.problems);
  registered = pairA3s();
  open = false;
  port?.postMessage({
    type: "registered",
    registrations: registered,
    problems,
    relay: read.settings,
  });
}

async function load(): Promise<void> {
  try {
    await loadSiblings();
    await loadRelayShape();
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    if (kind === "relay-config") return await loadRelayConfig(module);
    const engine = a3s.engineOf(module.default) ?? a3s.engineOf(module.engine);
    // An engine's own `register(hook)` is not a plugin's `register(api)`.
    const fallback = engine === undefined ? record(module.default) : {};
    const register = module.register ?? fallback.register ?? (engine ? undefined : module.default);
    if (typeof register !== "function" && engine === undefined) {
      port?.postMessage({
        type: "broken",
        reason:
          "exports no register(api) function (export function register(api) { … }) and no A3S HookEngine (export default engine)",
      });
      return;
    }
    if (typeof register === "function") await (register as (a: typeof api) => unknown)(api);
    if (engine !== undefined) registerEngine(engine);
    registered = pairA3s();
    open = false;
    port?.postMessage({ type: "registered", registrations: registered, problems });
  } catch (error) {
    port?.postMessage({ type: "broken", reason: `failed to load: ${message(error)}` });
  }
}

const running = new Map<number, AbortController>();

interface Answer {
  id: number;
  json?: string;
  text?: string;
  error?: string;
}

/**
 * Answers go out together: those ready by the next turn of the event loop
 * share one message (a message costs far more than its content).
 */
let outbox: Answer[] = [];
function answer(a: Answer): void {
  if (outbox.length === 0) queueMicrotask(flush);
  outbox.push(a);
}
function flush(): void {
  const batch = outbox;
  outbox = [];
  port?.postMessage({ type: "answers", answers: batch });
}

interface CallMessage {
  type: "call";
  id: number;
  registration: number;
  argument: unknown;
}

async function call(request: CallMessage): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  try {
    const handler = handlers[request.registration];
    if (handler === undefined) throw new Error(`no registration #${request.registration}`);
    const relayKind = relayKindOf(request.registration);
    const result =
      relayKind === undefined || relay === undefined
        ? await handler(request.argument, controller.signal)
        : await relay.callRelayHandler(handler as Fn, relayKind, request.argument, hostRequest);
    if (result === undefined || result === null) answer({ id: request.id });
    else if (typeof result === "string") answer({ id: request.id, text: result });
    else if (typeof result === "object") {
      answer({ id: request.id, json: JSON.stringify(result) });
    } else {
      answer({ id: request.id, error: `returned a ${typeof result}, not an answer object` });
    }
  } catch (error) {
    answer({ id: request.id, error: `threw ${message(error)}` });
  } finally {
    running.delete(request.id);
  }
}

function relayKindOf(index: number): string | undefined {
  const r = registered[index];
  if (r?.shape !== "relay") return undefined;
  return String(record(r.options).relay);
}

/** A relay handler's `ctx.memory` calls: asked of the host, answered by `reply`. */
let requests = 0;
const replies = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
function hostRequest(op: string, args: unknown[]): Promise<unknown> {
  const id = ++requests;
  return new Promise((resolve, reject) => {
    replies.set(id, { resolve, reject });
    port?.postMessage({ type: "request", id, op, args });
  });
}

function settleReply(msg: { id: number; value?: unknown; error?: string }): void {
  const waiting = replies.get(msg.id);
  replies.delete(msg.id);
  if (msg.error === undefined) waiting?.resolve(msg.value);
  else waiting?.reject(new Error(msg.error));
}

port.on("message", (msg: { type: string; id: number }) => {
  switch (msg.type) {
    case "reply":
      settleReply(msg);
      break;
    case "call":
      void call(msg as CallMessage);
      break;
    case "calls":
      for (const one of (msg as unknown as { calls: CallMessage[] }).calls) void call(one);
      break;
    case "abort":
      running.get(msg.id)?.abort();
      break;
    case "ping":
      port.postMessage({ type: "pong", id: msg.id });
      break;
  }
});

void load();
