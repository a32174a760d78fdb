// The settings file's fields and their schemas, each built at its first use
// (decision 0063): settings.ts parses, checks and merges files with them.
import { z } from "zod";
import { PermissionsSettingsSchema } from "../permissions/rules.js";
import { onceEach } from "../shared/once.js";
import { BASE_URL_REQUIREMENT, isHttpUrl } from "./base-url.js";
import { MAX_STEPS_MAX, MAX_STEPS_MIN } from "./max-steps.js";
import { McpServersSchema } from "./mcp-servers.js";
import { RelaySettingsSchema } from "./relay-settings.js";
import { SandboxSettingsSchema } from "./sandbox-settings.js";

const BaseUrlSchema = z.lazy(() =>
  z
    .string()
    .refine(isHttpUrl, { message: BASE_URL_REQUIREMENT })
    .describe("An OpenAI-compatible server, http(s)://…"),
);

export const HookDefaultsSchema = z.lazy(() =>
  z.object({
    timeoutMs: z.int().min(100).max(600_000).optional(),
    contextCapChars: z.int().min(1).optional(),
    maxStopBlocks: z.int().min(1).max(1000).optional(),
    sessionEndBudgetMs: z.int().min(0).max(600_000).optional(),
    /** Async hooks running at once (default 8). */
    maxAsyncHooks: z.int().min(1).max(1000).optional(),
    /** Async hooks waiting for a free slot (default 256); past it a hook is dropped, with a warning. */
    asyncQueueLimit: z.int().min(0).max(100_000).optional(),
    /** Hooks per event (default 100); past it the last in run order are not loaded, with a warning. User settings only. */
    maxHooks: z.int().min(1).max(10_000).optional(),
  }),
);

/** agent-relay's capability grants (default: all off). Read from the user's settings file only. */
export const CapabilitiesSchema = z.lazy(() =>
  z.object({
    /** agent-relay's `inject` is not cut at 2,000 characters (the context cap still applies). */
    unlimitedInjection: z.boolean().optional(),
    /** agent-relay's flag: hooks get every host in the OS sandbox (docs/security.md §8; default: only what each declares). */
    allowNetworkInHooks: z.boolean().optional(),
  }),
);

/**
 * Plugins of `~/.acai/plugins/` by file name (docs/plugins.md): `isolation:
 * "none"` runs that plugin in acai's own thread instead of a worker. Read
 * from the user's settings file only; a project's is ignored.
 */
const PluginsSettingsSchema = z.lazy(() =>
  z.record(
    z.string().regex(/^[^/\\]+\.(?:js|mjs|ts)$/, {
      error: "a plugin's file name in ~/.acai/plugins/ (guard.mjs), no folder",
    }),
    z.object({ isolation: z.enum(["worker", "none"]) }),
  ),
);

/** The built-in memory (`@memory:` patterns, `acai memory`; docs/memory.md). */
export const MemorySettingsSchema = z.lazy(() =>
  z.object({
    /** False: no built-in `@memory:` handler (hooks may handle the namespace) and nothing injected at start. */
    enabled: z.boolean().optional(),
    /** Where `@memory:` saves and searches: this project (default) or every project of the user. */
    scope: z.enum(["project", "user"]).optional(),
    /** How many memories (the most relevant to the project) the agent is given at session start; 0 = none (default 5). */
    injectOnStart: z.int().min(0).max(50).optional(),
  }),
);

/** One model's price, USD per million tokens (no zod in models/pricing.ts: the REPL's first frame imports it). */
export const ModelPriceSettingSchema = z.lazy(() =>
  z.object({
    input: z.number().min(0).describe("USD per million input tokens"),
    output: z.number().min(0).describe("USD per million output tokens"),
  }),
);

/**
 * One settings file's fields, each schema built at its first use: a file is
 * validated against the fields it sets only (`settingsSchemaFor`), so a
 * project's `{"hooks": …}` does not build the schemas of the twenty-odd
 * fields it leaves out (decision 0063). Every field is optional: a file
 * validates the same against its own fields as against all of them.
 */
const SETTINGS_FIELDS = {
  $schema: () => z.string().optional(),
  /** Model spec, e.g. `openai:gpt-5.1` or `replay:path/to/scenario.json`. */
  model: () => z.string().min(1).optional(),
  /** OpenAI-compatible server, e.g. `http://localhost:11434/v1`. */
  baseUrl: () => BaseUrlSchema.optional(),
  maxSteps: () => z.int().min(MAX_STEPS_MIN).max(MAX_STEPS_MAX).optional(),
  /** Claude Code–shaped hook configuration; validated per hook by the hooks registry. */
  hooks: () => z.unknown().optional(),
  hookDefaults: () => HookDefaultsSchema.optional(),
  /**
   * Where http hooks may post (Claude Code's key): URL patterns, `*` any
   * characters. The user's list binds every hook; a project's can only narrow
   * it for its own hooks; unset, a project's http hooks post nowhere.
   */
  allowedHttpHookUrls: () => z.array(z.string().min(1)).max(1000).optional(),
  /** Claude Code's switch: no hook runs (a project's reaches only its own hooks). */
  disableAllHooks: () => z.boolean().optional(),
  /** Hooks kept from running, by name (`acai hooks disable NAME`; a project's: its own hooks only). */
  disabledHooks: () => z.array(z.string().min(1).max(200)).max(1000).optional(),
  /**
   * Gemini CLI's switches, read as the two above: `enabled: false` is
   * `disableAllHooks`, `disabled` (hook names) adds to `disabledHooks`.
   */
  hooksConfig: () =>
    z
      .object({
        enabled: z.boolean().optional(),
        disabled: z.array(z.string().min(1).max(200)).max(1000).optional(),
      })
      .optional(),
  /** Prices by model id, over acai's built-in table: `{"my-model": {"input": 0.5, "output": 1.5}}`. */
  pricing: () =>
    z
      .record(
        z.string().trim().min(1, { error: "a model id must not be empty" }),
        ModelPriceSettingSchema,
      )
      .optional(),
  /** Replaces acai's system prompt (instructions files and `appendSystemPrompt` still follow). */
  systemPrompt: () => z.string().max(1_000_000).optional(),
  /** Added at the end of the system prompt. */
  appendSystemPrompt: () => z.string().max(1_000_000).optional(),
  /** The model's context window in tokens, for models acai does not know (compaction). */
  contextWindow: () => z.int().min(1000).max(100_000_000).optional(),
  /** MCP servers by name (Claude Code's shape); the project's apply once it is trusted. */
  mcpServers: () => McpServersSchema.optional(),
  capabilities: () => CapabilitiesSchema.optional(),
  /** Per user plugin file: `{"guard.mjs": {"isolation": "none"}}` runs it in acai's thread. User settings only. */
  plugins: () => PluginsSettingsSchema.optional(),
  memory: () => MemorySettingsSchema.optional(),
  /** Milliseconds without agent output before the `idle` hook event (default 30,000). */
  idleMs: () => z.int().min(100).max(86_400_000).optional(),
  /**
   * Tool permissions, Claude Code's shape: `allow` / `deny` / `ask` rules and
   * `defaultMode` (docs/permissions.md). Rules of every file add up; the
   * project's apply once it is trusted.
   */
  permissions: () => PermissionsSettingsSchema.optional(),
  /** Messages between agents: `{"url": "nats://host:4222"}` for several machines (docs/messaging.md). */
  relay: () => RelaySettingsSchema.optional(),
  /** The OS sandbox of tools and hooks, Claude Code's shape (docs/security.md, "Sandbox"). */
  sandbox: () => SandboxSettingsSchema.optional(),
  /**
   * Variables for the session (Claude Code's `env`): the environment of tools, hooks
   * and MCP servers (secret-looking names are still withheld from them), and, from
   * the user's own files, of acai itself (docs/cli.md "Settings").
   */
  env: () =>
    z
      .record(
        z
          .string()
          .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "a variable name: letters, digits, _" }),
        z.string(),
      )
      .optional(),
  /** False: Claude Code's settings files (~/.claude/settings.json, .claude/settings*.json) are not read. */
  claudeSettings: () => z.boolean().optional(),
};

type SettingsFieldName = keyof typeof SETTINGS_FIELDS;
type SettingsShape = { [K in SettingsFieldName]: ReturnType<(typeof SETTINGS_FIELDS)[K]> };

export function isSettingsField(key: string): key is SettingsFieldName {
  return Object.hasOwn(SETTINGS_FIELDS, key);
}

/** Each field's schema, built once (also `SettingsSchema`'s, when something needs every field). */
const fieldSchema = onceEach((key: SettingsFieldName): z.ZodType => SETTINGS_FIELDS[key]());

export function settingsFieldSchema<K extends SettingsFieldName>(key: K): SettingsShape[K] {
  return fieldSchema(key) as SettingsShape[K];
}

function shapeOf(keys: readonly SettingsFieldName[]): SettingsShape {
  return Object.fromEntries(keys.map((key) => [key, settingsFieldSchema(key)])) as SettingsShape;
}

/** One settings file, every field (the JSON Schema, tests). Unknown keys are not an error: see `settingsSchemaFor`. */
export const SettingsSchema = z.lazy(() =>
  z.object(shapeOf(Object.keys(SETTINGS_FIELDS) as SettingsFieldName[])),
);

/** Object schemas for the sets of fields files set, by their names in `SETTINGS_FIELDS` order. */
const schemasByFields = new Map<string, z.ZodType<Settings>>();
const MAX_FIELD_SETS = 64;

/**
 * The schema a settings value is validated with: an object of the fields it
 * sets, in `SETTINGS_FIELDS` order (so its first issue is the one the whole
 * schema reports). Unknown keys are not an error (files are shared with
 * other tools and newer acai versions): each one gives a warning and is ignored.
 */
export function settingsSchemaFor(value: Record<string, unknown>): z.ZodType<Settings> {
  const keys = (Object.keys(SETTINGS_FIELDS) as SettingsFieldName[]).filter((key) =>
    Object.hasOwn(value, key),
  );
  const name = keys.join(",");
  let schema = schemasByFields.get(name);
  if (schema === undefined) {
    schema = z.object(shapeOf(keys)) as unknown as z.ZodType<Settings>;
    if (schemasByFields.size >= MAX_FIELD_SETS) schemasByFields.clear();
    schemasByFields.set(name, schema);
  }
  return schema;
}

export type Settings = z.infer<typeof SettingsSchema>;
export type HookDefaults = z.infer<typeof HookDefaultsSchema>;
