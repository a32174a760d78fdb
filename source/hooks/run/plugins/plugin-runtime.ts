/**
 * What runs one plugin file, wherever it runs: in its own worker thread
 * (worker.ts, the default) or in acai's own thread (in-process.ts, a user
 * plugin set to `isolation: "none"`). It imports the plugin, calls its
 * `register(api)`, reports the registrations (plain data: what the handler
 * listens to and how), then calls handlers on request. Self-contained (only
 * erasable types), so the worker can load it as TypeScript source too.
 *
 * In (`receive`): `call`, `calls`, `abort`, `ping`, `reply` (a `ctx.memory`
 * answer). Out (`post`): `registered` | `broken`, `answers`, `pong`, `request`
 * (a relay handler's `ctx.memory`), `late` (a registration made after
 * `register()` returned) and `late-problem`. `kind` "relay-config": agent-relay's
 * `relay.config.ts`, read by relay-shape.ts (which calls relay-shaped handlers).
 */
import type * as RelayShape from "./relay-shape.js";
import type * as A3sShape from "./worker-a3s.js";
import type { Entry, Handler, Registered } from "./worker-a3s.js";

export interface PluginRuntimeOptions {
  /** The plugin file, as a URL to import. */
  url: string;
  /** The file's path (relay.config messages name it). */
  file: string;
  kind?: string | undefined;
  relay: typeof RelayShape;
  a3s: typeof A3sShape;
  post(message: unknown): void;
}

export interface PluginRuntime {
  load(): Promise<void>;
  receive(message: { type: string; id: number }): void;
}

interface CallMessage {
  type: "call";
  id: number;
  registration: number;
  argument: unknown;
}

interface Answer {
  id: number;
  json?: string;
  text?: string;
  error?: string;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : {};
}

/** A plain-data copy of what the plugin passed (functions and cycles dropped), or a note. */
function plain(value: unknown): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (error) {
    return { unreadable: String((error as Error).message) };
  }
}

function message(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

/** The registrations a plugin makes through its api, and A3S's hooks and handlers paired by id. */
class Registry {
  readonly handlers: Handler[] = [];
  readonly problems: string[] = [];
  /** Registrations in the order they were made; an A3S hook's place is kept until its handler is known. */
  readonly entries: Entry[] = [];
  readonly a3sHooks = new Map<string, Record<string, unknown>>();
  readonly a3sHandlers = new Map<string, unknown>();
  /** What was registered, by index (set once register() returned): relay-shaped calls read it. */
  registered: Registered[] = [];
  open = true;

  private readonly options: PluginRuntimeOptions;

  constructor(options: PluginRuntimeOptions) {
    this.options = options;
  }

  /** A problem with a registration: reported with the load, or — after register() returned — at once. */
  problem(text: string): void {
    if (this.open) this.problems.push(text);
    else this.options.post({ type: "late-problem", problem: text });
  }

  add(
    shape: Registered["shape"],
    name: unknown,
    events: unknown[],
    handler: unknown,
    options: unknown,
  ): void {
    if (typeof handler !== "function") {
      this.problem(`a ${shape} registration has no handler function (ignored)`);
      return;
    }
    const registration: Registered = {
      shape,
      name: typeof name === "string" ? name : undefined,
      events: plain(events) as unknown[],
      options: plain(options),
    };
    if (this.open) {
      this.entries.push({ handler: handler as Handler, registration });
      return;
    }
    // After register() returned (OpenClaw's dynamic addition): acai adds it to the running session.
    this.handlers.push(handler as Handler);
    this.options.post({ type: "late", index: this.handlers.length - 1, registration });
  }

  /** A3S's `engine.register(hook)`: `{ id, event_type, matcher, config }`. */
  addA3s(hook: unknown): void {
    const h = record(hook);
    if (typeof h.id !== "string") {
      this.problem("an A3S hook without a string id (ignored)");
      return;
    }
    if (!this.open) {
      this.problem(`A3S hook "${h.id}" was registered after register() returned (ignored)`);
      return;
    }
    if (this.a3sHooks.has(h.id))
      this.problems.push(`A3S hook "${h.id}" was registered twice (the later one is used)`);
    else this.entries.push({ a3s: h.id });
    this.a3sHooks.set(h.id, h);
  }

  /** Closes registration: each A3S hook paired with its handler (worker-a3s.ts). */
  close(): Registered[] {
    const paired = this.options.a3s.pairA3s({
      entries: this.entries,
      a3sHooks: this.a3sHooks,
      a3sHandlers: this.a3sHandlers,
      plain,
    });
    this.handlers.push(...paired.handlers);
    this.problems.push(...paired.problems);
    this.registered = paired.registrations;
    this.open = false;
    return this.registered;
  }
}

/** The api object `register(api)` receives: acai's, OpenClaw's, A3S's and agent-relay's shapes. */
function pluginApi(registry: Registry, relay: typeof RelayShape) {
  return {
    /** acai's own: any event name acai accepts, options as hooks.md §6.3. */
    on(event: unknown, handler: unknown, options?: unknown) {
      const opts = record(options);
      if (typeof event === "string" && relay.RELAY_ON_NAMES.includes(event)) {
        registry.add("relay", opts.name, [event], handler, { ...opts, relay: event });
      } else registry.add("acai", opts.name, [event], handler, options);
    },
    /** OpenClaw's `api.registerHook({ event, handler, priority })`. */
    registerHook(registration: unknown) {
      const r = record(registration);
      const { handler, ...rest } = r;
      registry.add("openclaw", r.name, [r.event], handler, rest);
    },
    /** A3S's `engine.register(hook)`. */
    register(hook: unknown) {
      registry.addA3s(hook);
    },
    /** A3S's `engine.register_handler(id, { handle })` (or a function). */
    register_handler(id: unknown, handler: unknown) {
      registry.a3sHandlers.set(String(id), handler);
    },
    /** agent-relay's `relay.pattern(namespace, handler)`: the `pattern` event, by namespace. */
    pattern(namespace: unknown, handler: unknown, options?: unknown) {
      const opts: Record<string, unknown> = { ...record(options), namespace };
      // agent-relay's `(target, message, ctx)`; acai's own is `(event, signal)`.
      if (typeof handler === "function" && handler.length >= 3) {
        registry.add("relay", opts.name, ["pattern"], handler, { ...opts, relay: "pattern" });
      } else registry.add("pattern", opts.name, ["pattern"], handler, opts);
    },
  };
}

export function createPluginRuntime(options: PluginRuntimeOptions): PluginRuntime {
  return new Runtime(options);
}

class Runtime implements PluginRuntime {
  private readonly registry: Registry;
  private readonly api: ReturnType<typeof pluginApi>;
  private readonly running = new Map<number, AbortController>();
  /** Answers ready by the next turn of the event loop share one message (a message costs far more than its content). */
  private outbox: Answer[] = [];
  private requests = 0;
  private readonly replies = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void }
  >();

  private readonly options: PluginRuntimeOptions;

  constructor(options: PluginRuntimeOptions) {
    this.options = options;
    this.registry = new Registry(options);
    this.api = pluginApi(this.registry, options.relay);
  }

  async load(): Promise<void> {
    const { a3s, post } = this.options;
    try {
      const module = (await import(this.options.url)) as Record<string, unknown>;
      if (this.options.kind === "relay-config") return this.loadRelayConfig(module);
      const engine = a3s.engineOf(module.default) ?? a3s.engineOf(module.engine);
      // An engine's own `register(hook)` is not a plugin's `register(api)`.
      const fallback = engine === undefined ? record(module.default) : {};
      const register =
        module.register ?? fallback.register ?? (engine ? undefined : module.default);
      if (typeof register !== "function" && engine === undefined) {
        post({
          type: "broken",
          reason:
            "exports no register(api) function (export function register(api) { … }) and no A3S HookEngine (export default engine)",
        });
        return;
      }
      if (typeof register === "function") await (register as (a: unknown) => unknown)(this.api);
      if (engine !== undefined) this.registerEngine(engine);
      const registered = this.registry.close();
      post({ type: "registered", registrations: registered, problems: this.registry.problems });
    } catch (error) {
      post({ type: "broken", reason: `failed to load: ${message(error)}` });
    }
  }

  /** An exported A3S `HookEngine` (acai-agent/hooks): its hooks and handlers, as if registered through the api. */
  private registerEngine(engine: A3sShape.EngineLike): void {
    for (const hook of engine.all_hooks()) {
      this.api.register(hook);
      const id = record(hook).id;
      const handler = typeof id === "string" ? engine.get_handler(id) : undefined;
      if (handler !== undefined) this.api.register_handler(id, handler);
    }
  }

  /** A relay.config: its default export read into registrations; its settings go to the host. */
  private loadRelayConfig(module: Record<string, unknown>): void {
    const read = this.options.relay.readRelayConfig(module.default, this.options.file);
    for (const r of read.registrations) {
      this.registry.add("relay", r.name, [r.event], r.handler, r.options);
    }
    this.registry.problems.push(...read.problems);
    const registered = this.registry.close();
    this.options.post({
      type: "registered",
      registrations: registered,
      problems: this.registry.problems,
      relay: read.settings,
    });
  }

  receive(msg: { type: string; id: number }): void {
    switch (msg.type) {
      case "reply":
        this.settleReply(msg);
        break;
      case "call":
        void this.call(msg as CallMessage);
        break;
      case "calls":
        for (const one of (msg as unknown as { calls: CallMessage[] }).calls) void this.call(one);
        break;
      case "abort":
        this.running.get(msg.id)?.abort();
        break;
      case "ping":
        this.options.post({ type: "pong", id: msg.id });
        break;
    }
  }

  private async call(request: CallMessage): Promise<void> {
    const controller = new AbortController();
    this.running.set(request.id, controller);
    try {
      const handler = this.registry.handlers[request.registration];
      if (handler === undefined) throw new Error(`no registration #${request.registration}`);
      const relayKind = this.relayKindOf(request.registration);
      const result =
        relayKind === undefined
          ? await handler(request.argument, controller.signal)
          : await this.options.relay.callRelayHandler(
              handler as (...args: unknown[]) => unknown,
              relayKind,
              request.argument,
              (op, args) => this.hostRequest(op, args),
            );
      this.answer(answerOf(request.id, result));
    } catch (error) {
      this.answer({ id: request.id, error: `threw ${message(error)}` });
    } finally {
      this.running.delete(request.id);
    }
  }

  private answer(a: Answer): void {
    if (this.outbox.length === 0) queueMicrotask(() => this.flush());
    this.outbox.push(a);
  }

  private flush(): void {
    const batch = this.outbox;
    this.outbox = [];
    this.options.post({ type: "answers", answers: batch });
  }

  private relayKindOf(index: number): string | undefined {
    const r = this.registry.registered[index];
    if (r?.shape !== "relay") return undefined;
    return String(record(r.options).relay);
  }

  /** A relay handler's `ctx.memory` calls: asked of the host, answered by `reply`. */
  private hostRequest(op: string, args: unknown[]): Promise<unknown> {
    const id = ++this.requests;
    return new Promise((resolve, reject) => {
      this.replies.set(id, { resolve, reject });
      this.options.post({ type: "request", id, op, args });
    });
  }

  private settleReply(msg: { id: number; value?: unknown; error?: string }): void {
    const waiting = this.replies.get(msg.id);
    this.replies.delete(msg.id);
    if (msg.error === undefined) waiting?.resolve(msg.value);
    else waiting?.reject(new Error(msg.error));
  }
}

/** What a handler returned, as the answer acai decodes. */
function answerOf(id: number, result: unknown): Answer {
  if (result === undefined || result === null) return { id };
  if (typeof result === "string") return { id, text: result };
  if (typeof result === "object") return { id, json: JSON.stringify(result) };
  return { id, error: `returned a ${typeof result}, not an answer object` };
}
