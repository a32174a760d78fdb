/**
 * agent-relay inside a plugin's worker (worker.ts imports this module only
 * when a plugin needs it): a `relay.config.ts`'s `patterns` and `hooks` as
 * registrations, and a call of a relay-shaped handler with relay's arguments
 * — `(ctx)`, `(output, ctx)`, `(msg, ctx)`, `(target, message, ctx)`,
 * `(tool, args, ctx)` — and its `HookContext` with `ctx.memory`,
 * `ctx.inject`, `ctx.notify` (docs/relay.md "Coming from agent-relay").
 *
 * Self-contained like worker.ts (only erasable types, no imports): it runs as
 * TypeScript source too. What the host sends and reads back is plain data;
 * the host checks it (zod) like any hook's answer.
 */

type Fn = (...args: unknown[]) => unknown;
type Fields = Record<string, unknown>;

/** One registration, as worker.ts's `add` takes it. */
export interface RelayRegistration {
  name: string;
  event: string;
  handler: Fn;
  options: Fields;
}

/** What a relay.config's default export gave: its registrations, its settings (plain data), problems. */
export interface RelayConfigRead {
  registrations: RelayRegistration[];
  settings: Fields;
  problems: string[];
}

/** relay.config's lifecycle hooks acai raises (system-names.ts has the events they become). */
const HOOK_NAMES = [
  "onSessionStart",
  "onSessionEnd",
  "onOutput",
  "onIdle",
  "onMessageReceived",
  "onToolCall",
];
/** agent-relay's names given to `api.on` / `relay.on`: their handlers take relay's arguments. */
export const RELAY_ON_NAMES = [
  ...HOOK_NAMES,
  "sessionStart",
  "sessionEnd",
  "messageReceived",
  "toolCall",
];
const CONFIG_KEYS = ["patterns", "hooks", "options", "capabilities", "memory"];
/** Namespaces acai handles itself: `'builtin'` for them is what acai does anyway. */
const BUILTIN_NAMESPACES = ["memory", "relay", "broadcast"];

function fields(value: unknown): Fields | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Fields)
    : undefined;
}

/** A relay.config's `patterns` and `hooks` as registrations, its other sections as settings. */
export function readRelayConfig(config: unknown, file: string): RelayConfigRead {
  const read: RelayConfigRead = { registrations: [], settings: {}, problems: [] };
  const c = fields(config);
  if (c === undefined) {
    read.problems.push(`${file}: its default export is not an object ({ patterns, hooks, … })`);
    return read;
  }
  for (const key of Object.keys(c)) {
    if (!CONFIG_KEYS.includes(key)) {
      read.problems.push(`${key}: not an agent-relay config section acai reads (ignored)`);
    }
  }
  readPatterns(c.patterns, read);
  readHooks(c.hooks, read);
  for (const key of ["options", "capabilities", "memory"]) {
    if (c[key] !== undefined) read.settings[key] = plainCopy(c[key]);
  }
  return read;
}

function readPatterns(given: unknown, read: RelayConfigRead): void {
  if (given === undefined) return;
  const patterns = fields(given);
  if (patterns === undefined) {
    read.problems.push("patterns: not an object of namespaces (ignored)");
    return;
  }
  for (const [namespace, entry] of Object.entries(patterns)) {
    if (entry === "builtin") {
      if (!BUILTIN_NAMESPACES.includes(namespace)) {
        read.problems.push(
          `patterns.${namespace}: acai has no built-in @${namespace}: handler (built-ins: ${BUILTIN_NAMESPACES.join(", ")})`,
        );
      }
      continue;
    }
    const handler = typeof entry === "function" ? entry : fields(entry)?.handler;
    if (typeof handler !== "function") {
      read.problems.push(
        `patterns.${namespace}: no handler function ({ handler: async (target, message, ctx) => … })`,
      );
      continue;
    }
    read.registrations.push({
      name: `@${namespace}:`,
      event: "pattern",
      handler: handler as Fn,
      options: { namespace, relay: "pattern" },
    });
  }
}

function readHooks(given: unknown, read: RelayConfigRead): void {
  if (given === undefined) return;
  const hooks = fields(given);
  if (hooks === undefined) {
    read.problems.push("hooks: not an object of lifecycle hooks (ignored)");
    return;
  }
  for (const [name, handler] of Object.entries(hooks)) {
    if (!HOOK_NAMES.includes(name)) {
      read.problems.push(
        `hooks.${name}: not an agent-relay lifecycle hook acai raises (${HOOK_NAMES.join(", ")})`,
      );
      continue;
    }
    if (typeof handler !== "function") {
      read.problems.push(`hooks.${name}: not a function`);
      continue;
    }
    read.registrations.push({
      name,
      event: name,
      handler: handler as Fn,
      options: { relay: name },
    });
  }
}

function plainCopy(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value)) as unknown;
  } catch (error) {
    return { unreadable: String((error as Error).message) };
  }
}

/** What the host sends with each relay call: the payload and the session's relay context. */
interface RelayArgument {
  payload?: Fields;
  context?: Fields;
}

/** Asks the host for a service (`memory.search`, …) and resolves with its answer. */
export type HostRequest = (op: string, args: unknown[]) => Promise<unknown>;

/** One memory as a handler sees it: `${m}` and `m.content` both read its text. */
function memoryItem(value: unknown): Fields {
  const m = fields(value) ?? {};
  return {
    ...m,
    toString() {
      return String(m.content ?? "");
    },
  };
}

function memoryApi(request: HostRequest): Fields {
  const list = async (op: string, args: unknown[]) => {
    const found = await request(op, args);
    const items = Array.isArray(found) ? found.map(memoryItem) : [];
    // `${memories}` reads as lines, as agent-relay's examples print them.
    Object.defineProperty(items, "toString", { value: () => items.map(String).join("\n") });
    return items;
  };
  return {
    search: (query: unknown) => list("memory.search", [String(query ?? "")]),
    list: () => list("memory.list", []),
    add: (content: unknown) => request("memory.add", [String(content ?? "")]),
    save: (content: unknown) => request("memory.add", [String(content ?? "")]),
    forget: (id: unknown) => request("memory.forget", [String(id ?? "")]),
    delete: (id: unknown) => request("memory.forget", [String(id ?? "")]),
  };
}

/** What `ctx.inject` and `ctx.notify` asked during one call: merged into its answer. */
interface Asked {
  inject: string[];
  sendMessage?: { to: string; content: string; metadata?: unknown };
}

function hookContext(argument: RelayArgument, request: HostRequest, asked: Asked): Fields {
  const p = argument.payload ?? {};
  const c = argument.context ?? {};
  const ctx: Fields = {
    agentId: c.agentId ?? p.session_id,
    agentName: p.agent_name ?? c.agentName ?? "",
    sessionId: p.session_id,
    workingDir: p.cwd,
    projectName: p.project_name ?? c.projectName,
    recentOutput: Object.freeze([...((c.recentOutput as unknown[]) ?? [])]),
    recentMessages: Object.freeze([...((c.recentMessages as unknown[]) ?? [])]),
    sessionStartTime: c.sessionStartTime,
    lastOutputTime: c.lastOutputTime,
    idleSeconds: p.idle_seconds ?? c.idleSeconds ?? 0,
    memory: Object.freeze(memoryApi(request)),
    inject: (text: unknown) => {
      asked.inject.push(String(text));
    },
    notify: (to: unknown, content: unknown, metadata?: unknown) => {
      asked.sendMessage ??= {
        to: String(to),
        content: String(content ?? ""),
        ...(metadata === undefined ? {} : { metadata: plainCopy(metadata) }),
      };
    },
  };
  return Object.freeze(ctx);
}

/** agent-relay's `RelayMessage` from message_received's payload: a broadcast's `from` is `*`. */
function relayMessage(p: Fields): Fields {
  const broadcast = p.broadcast === true;
  return Object.freeze({
    id: p.message_id,
    from: broadcast ? "*" : p.from,
    to: p.to,
    content: p.content,
    timestamp: typeof p.sent_at === "string" ? Date.parse(p.sent_at) : undefined,
    metadata: Object.freeze({ ...(fields(p.metadata) ?? {}), sender: p.from, broadcast }),
  });
}

function argumentsFor(kind: string, p: Fields, ctx: Fields): unknown[] {
  switch (kind) {
    case "pattern":
      return [p.target, p.message, ctx];
    case "onOutput":
    case "output":
      return [p.text, ctx];
    case "onMessageReceived":
    case "messageReceived":
      return [relayMessage(p), ctx];
    case "onToolCall":
    case "toolCall":
      return [p.tool_name, p.tool_input, ctx];
    default:
      return [ctx];
  }
}

/** Calls a relay-shaped handler and returns its answer with what ctx.inject / ctx.notify asked. */
export async function callRelayHandler(
  handler: Fn,
  kind: string,
  argument: unknown,
  request: HostRequest,
): Promise<unknown> {
  const given = (fields(argument) ?? {}) as RelayArgument;
  const asked: Asked = { inject: [] };
  const ctx = hookContext(given, request, asked);
  const result = await handler(...argumentsFor(kind, given.payload ?? {}, ctx));
  if (asked.inject.length === 0 && asked.sendMessage === undefined) return result;
  const answer: Fields = { ...(fields(result) ?? {}) };
  if (asked.inject.length > 0) {
    const before = typeof answer.inject === "string" ? [answer.inject] : [];
    answer.inject = [...asked.inject, ...before].join("\n");
  }
  if (asked.sendMessage !== undefined && answer.sendMessage === undefined) {
    answer.sendMessage = asked.sendMessage;
  }
  return answer;
}
