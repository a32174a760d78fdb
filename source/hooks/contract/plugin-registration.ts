/**
 * What a plugin registered (plain data from its worker, worker.ts) → hook
 * definitions, validated with zod: acai's `api.on(event, handler, options)`,
 * OpenClaw's `api.registerHook({ event, handler, priority })`, A3S's
 * `register({ id, event_type, matcher, config })` + `register_handler`, and
 * `api.pattern(namespace, handler)`, and agent-relay's (a `relay.config.ts`'s
 * `patterns` and `hooks`, `relay.on("sessionStart", …)`, a pattern handler
 * `(target, message, ctx)`: shape `relay`). OpenClaw and A3S priorities mean "lower
 * runs first": a given one is placed at `1000 − p` (hooks.md §5). acai's
 * `askAhead` option and A3S's `config.ask_ahead` opt in to asking ahead
 * (decision 0012); OpenClaw's registration has no place for it.
 */
import path from "node:path";
import { z } from "zod";
import { once } from "../../shared/once.js";
import { a3sEvents, parseA3sOptions } from "./a3s.js";
import type { HookDefinition, HookEventName, HookMatcher, HookScope } from "./definition.js";
import { isHookEventName, normalizeEventName } from "./events/names.js";
import { InvalidMatcherError, prepareHookMatcher } from "./match.js";
import { openClawHook } from "./openclaw.js";
import {
  AskAheadSchema,
  DEFAULT_HOOK_TIMEOUT_MS,
  formatZodError,
  MatcherSchema,
  MaxRetriesSchema,
} from "./schemas/metadata.js";

export type RegistrationShape = "acai" | "openclaw" | "a3s" | "pattern" | "relay";

/** One registration as the worker reports it. */
export const RawRegistrationSchema = z.lazy(() =>
  z.object({
    shape: z.enum(["acai", "openclaw", "a3s", "pattern", "relay"]),
    name: z.string().min(1).max(200).optional(),
    events: z.array(z.unknown()).length(1),
    options: z.unknown(),
  }),
);
export type RawRegistration = z.infer<typeof RawRegistrationSchema>;

const Priority = () => z.number().int().min(0).max(1000);
const Timeout = () => z.int().min(100).max(600_000);
const Failure = () => z.enum(["open", "closed"]);

const acaiOptions = once(() =>
  z.strictObject({
    name: z.string().min(1).max(200).optional(),
    priority: Priority().optional(),
    matcher: MatcherSchema().optional(),
    async: z.boolean().optional(),
    timeoutMs: Timeout().optional(),
    failure: Failure().optional(),
    maxRetries: MaxRetriesSchema().optional(),
    askAhead: AskAheadSchema().optional(),
  }),
);

/** Each options schema is built at its first parse (a session without plugins parses none). */
const AcaiOptionsSchema = z.lazy(acaiOptions);

const OpenClawOptionsSchema = z.lazy(() =>
  z.looseObject({
    event: z.unknown().optional(),
    name: z.string().optional(),
    priority: z.number().optional(),
  }),
);

const PatternOptionsSchema = z.lazy(() =>
  acaiOptions()
    .omit({ matcher: true })
    .extend({
      namespace: z.string().min(1).max(200),
    }),
);

/** agent-relay's: what its handler takes (`relay`: the hook's name, or `pattern`) and acai's options. */
const RelayOptionsSchema = z.lazy(() =>
  acaiOptions()
    .omit({ matcher: true })
    .extend({
      relay: z.string().min(1).max(100),
      namespace: z.string().min(1).max(200).optional(),
    }),
);

/**
 * The default priority of each "lower runs first" system, on its own scale:
 * A3S's `HookConfig` says 100; OpenClaw's registration has none, and its own
 * example's `priority: 100, // Run after other hooks` only holds if an unset
 * one runs before 100 — it is 0, as `priority ?? 0` reads it.
 */
const LOWER_FIRST_DEFAULT = { a3s: 100, openclaw: 0 } as const;

/**
 * Places a "lower runs first" priority on acai's scale (hooks.md §5): `1000 −
 * p`, clamped to 0–1000; none given: the system's default placed the same way
 * (A3S 100 → 900, OpenClaw 0 → 1000), so the order among a system's own hooks
 * is the order it gives them.
 */
export function lowerFirstPriority(p: number | undefined, systemDefault: number): number {
  const given = p === undefined || !Number.isFinite(p) ? systemDefault : p;
  return Math.min(1000, Math.max(0, Math.round(1000 - given)));
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** What a registration becomes, before the common fields are added. */
interface Parsed {
  event: HookEventName;
  name?: string;
  priority: number;
  matcher: HookMatcher;
  async: boolean;
  timeoutMs?: number;
  failure: "open" | "closed";
  maxRetries?: number;
  askAhead?: boolean;
}

/** The events a registration listens to (A3S's PostToolUse is two), or why it has none. */
function eventsOf(shape: RegistrationShape, raw: unknown): readonly HookEventName[] | string {
  if (shape === "a3s") return a3sEvents(raw);
  if (shape === "openclaw") {
    const claw = openClawHook(raw);
    return typeof claw === "string" ? claw : claw.events;
  }
  const event = eventOf(shape, raw);
  return isHookEventName(event) ? [event] : event;
}

function eventOf(
  shape: Exclude<RegistrationShape, "a3s" | "openclaw">,
  raw: unknown,
): HookEventName | string {
  const name = typeof raw === "string" ? raw : String(raw);
  switch (shape) {
    case "acai":
      return normalizeEventName(name) ?? `unknown event ${JSON.stringify(raw)}`;
    case "pattern":
      return "pattern";
    case "relay":
      return (
        normalizeEventName(name) ?? `agent-relay hook ${JSON.stringify(raw)} has no acai event`
      );
    default:
      return shape satisfies never;
  }
}

function parse(
  shape: RegistrationShape,
  event: unknown,
  options: unknown,
): Omit<Parsed, "event"> | string {
  switch (shape) {
    case "acai": {
      const r = AcaiOptionsSchema.safeParse(options ?? {});
      if (!r.success) return formatZodError(r.error);
      const o = r.data;
      return {
        ...(o.name === undefined ? {} : { name: o.name }),
        priority: o.priority ?? 100,
        matcher: o.matcher ?? {},
        async: o.async ?? false,
        ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
        failure: o.failure ?? "open",
        ...(o.maxRetries === undefined ? {} : { maxRetries: o.maxRetries }),
        ...(o.askAhead === true ? { askAhead: true } : {}),
      };
    }
    case "openclaw":
      return parseOpenClaw(event, options);
    case "a3s":
      return parseA3s(options);
    case "relay":
      return parseRelay(options);
    case "pattern": {
      const r = PatternOptionsSchema.safeParse(options ?? {});
      if (!r.success) return formatZodError(r.error);
      const o = r.data;
      return {
        ...(o.name === undefined ? {} : { name: o.name }),
        priority: o.priority ?? 100,
        // Exactly the pattern's `@namespace` (the `namespace` matcher is a whole-name regex).
        matcher: { namespace: escapeRegex(o.namespace) },
        async: o.async ?? false,
        ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
        failure: o.failure ?? "open",
        ...(o.askAhead === true ? { askAhead: true } : {}),
      };
    }
    default:
      return shape satisfies never;
  }
}

function parseRelay(options: unknown): Omit<Parsed, "event"> | string {
  const r = RelayOptionsSchema.safeParse(options ?? {});
  if (!r.success) return formatZodError(r.error);
  const o = r.data;
  return {
    ...(o.name === undefined ? {} : { name: o.name }),
    priority: o.priority ?? 100,
    matcher: o.namespace === undefined ? {} : { namespace: escapeRegex(o.namespace) },
    async: o.async ?? false,
    ...(o.timeoutMs === undefined ? {} : { timeoutMs: o.timeoutMs }),
    failure: o.failure ?? "open",
    ...(o.maxRetries === undefined ? {} : { maxRetries: o.maxRetries }),
  };
}

/** OpenClaw's void hooks are fire-and-forget: async (hooks.md §5), never waited for. */
function parseOpenClaw(event: unknown, options: unknown): Omit<Parsed, "event"> | string {
  const r = OpenClawOptionsSchema.safeParse(options ?? {});
  if (!r.success) return formatZodError(r.error);
  const claw = openClawHook(event);
  if (typeof claw === "string") return claw;
  return {
    priority: lowerFirstPriority(r.data.priority, LOWER_FIRST_DEFAULT.openclaw),
    matcher: { ...claw.matcher },
    async: claw.void,
    failure: "open",
  };
}

function parseA3s(options: unknown): Omit<Parsed, "event"> | string {
  const o = parseA3sOptions(options);
  if (typeof o === "string") return o;
  return {
    ...o,
    priority: lowerFirstPriority(o.priority, LOWER_FIRST_DEFAULT.a3s),
    failure: "open",
  };
}

export interface PluginSource {
  file: string;
  scope: HookScope;
  projectDir: string;
  defaultTimeoutMs?: number;
}

/** One registration → a hook definition, or the reason it is not loaded. */
export function registrationHook(
  raw: RawRegistration,
  index: number,
  source: PluginSource,
): HookDefinition | string {
  const events = eventsOf(raw.shape, raw.events[0]);
  if (typeof events === "string") return events;
  const parsed = parse(raw.shape, raw.events[0], raw.options);
  if (typeof parsed === "string") return `invalid options: ${parsed}`;
  const base = path.basename(source.file);
  const hook: HookDefinition = {
    id: `${source.scope}:plugin:${source.file}#${index}`,
    name: parsed.name ?? raw.name ?? `${base}#${index}`,
    events: [...events],
    matcher: parsed.matcher,
    priority: parsed.priority,
    timeoutMs: parsed.timeoutMs ?? source.defaultTimeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS,
    async: parsed.async,
    failure: parsed.failure,
    env: [],
    scope: source.scope,
    sourceKind: "plugin",
    file: source.file,
    dialect: "acai",
    launch: {
      mode: "plugin",
      command: source.file,
      args: [`#${index}`],
      viaShell: false,
      registration: index,
    },
  };
  if (parsed.maxRetries !== undefined) hook.maxRetries = parsed.maxRetries;
  if (parsed.askAhead === true) hook.askAhead = true;
  try {
    prepareHookMatcher(hook, source.projectDir);
  } catch (error) {
    if (error instanceof InvalidMatcherError) return error.message;
    throw error;
  }
  return hook;
}

/** What loading one plugin file gave: its registrations (and the problems with some), or why it is broken. */
export type PluginLoad =
  | {
      ok: true;
      registrations: RawRegistration[];
      problems: string[];
      /** A relay.config's `options`, `capabilities`, `memory` (plain data, not yet checked). */
      relay?: unknown;
    }
  | { ok: false; reason: string };

/** A plugin file (`register(api)`), or agent-relay's `relay.config.ts` (a default export). */
export type PluginKind = "plugin" | "relay-config";

/** Runs a plugin file's `register(api)` (the session's plugin host, run/plugins/host.ts). */
/** A registration made after `register()` returned, as its worker reported it, or what was wrong with it. */
export type LateRegistration =
  | { kind: "registration"; index: number; raw: RawRegistration }
  | { kind: "problem"; problem: string };

export interface PluginLoader {
  /** `late` is told of each registration the plugin makes after `register(api)` returned. */
  load(
    file: string,
    kind?: PluginKind,
    late?: (late: LateRegistration) => void,
  ): Promise<PluginLoad>;
}
