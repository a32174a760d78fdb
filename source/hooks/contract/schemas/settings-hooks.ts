import { z } from "zod";
import { parseRuleText } from "../../../permissions/rules.js";
import { once, onceEach } from "../../../shared/once.js";
import { PARSED_ONCE } from "../../../shared/parsed-once.js";
import {
  EnvListSchema,
  EventNameSchema,
  ExecutableMetadataSchema,
  HookMdFrontmatterSchema,
  HookSandboxNeedsSchema,
} from "./metadata.js";

/**
 * Claude Code's handler fields, the same for every hook type: `if`, `once`,
 * `statusMessage`, `asyncRewake`, and acai's `enabled`.
 */
const HANDLER_FIELDS = () => ({
  if: z
    .string({ error: 'expected a permission rule, e.g. "Bash(git push:*)"' })
    .superRefine((text, ctx) => {
      const parsed = parseRuleText(text);
      if (!parsed.ok) ctx.addIssue({ code: "custom", message: `"if": ${parsed.error}` });
    })
    .optional()
    .describe(
      'Permission-rule syntax ("Bash(git push:*)", "Edit(src/**)"): the hook runs only for tool calls the rule catches, checked before anything starts. Tool events only',
    ),
  once: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe("Run at most once per session"),
  statusMessage: z
    .string({ error: "expected a short text" })
    .max(200, { error: "at most 200 characters" })
    .optional()
    .describe("Shown while the hook runs (the REPL's status line)"),
  asyncRewake: z
    .boolean({ error: "expected true or false" })
    .default(false)
    .describe(
      "Run in the background (implies async); an exit 2 wakes the agent with the hook's stderr",
    ),
  enabled: z
    .boolean({ error: "expected true or false" })
    .default(true)
    .describe("acai extra: false keeps the hook configured but never runs it"),
});

/** The fields every type of settings hook has (handler fields: how it runs, not what it runs). */
const HandlerFieldsSchema = () =>
  z.looseObject({
    timeout: z
      .number({ error: "expected a number of seconds" })
      .positive({ error: "expected a positive number of seconds" })
      .optional()
      .describe(
        "Seconds, as in Claude Code; default 30, or hookDefaults.timeoutMs. Outside acai's 0.1–600 the hook runs with the nearest limit, and acai warns",
      ),
    name: z.string().min(1).optional(),
    description: z.string().optional(),
    priority: z.int().min(0).max(1000).default(100),
    failure: z.enum(["open", "closed"]).default("open"),
    onFailure: z
      .enum(["block"], { error: 'expected "block" (or use acai\'s "failure": "open" | "closed")' })
      .optional()
      .describe('Claude Code\'s spelling of "failure": "closed"'),
    async: z.boolean().default(false),
    env: EnvListSchema()
      .default([])
      .describe("acai extra: secret-looking variables this hook may receive (otherwise scrubbed)"),
    sandbox: HookSandboxNeedsSchema().optional(),
    ...HANDLER_FIELDS(),
  });

type HandlerFields = ReturnType<typeof HandlerFieldsSchema>;

const CommandFieldsSchema = (handler: HandlerFields) =>
  handler.extend({
    type: z.literal("command"),
    command: z.string().trim().min(1, { error: "command must not be empty" }),
    args: z
      .array(z.string(), { error: "expected an array of strings" })
      .optional()
      .describe(
        "Exec form, as in Claude Code: run `command` (an absolute path, or one under $CLAUDE_PROJECT_DIR) with these arguments and no shell",
      ),
  });

/** A header's name and value as HTTP allows them (no line breaks: a header cannot smuggle another). */
const HeaderNameSchema = () =>
  z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, {
    error: "a header name is letters, digits and !#$%&'*+.^_`|~-",
  });
const HeaderValueSchema = () =>
  z
    .string()
    .max(8192)
    .regex(/^[^\r\n\0]*$/, { error: "a header value must not hold a line break" });

const HttpFieldsSchema = (handler: HandlerFields) =>
  handler.extend({
    type: z.literal("http"),
    url: z
      .url({ protocol: /^https?$/, error: "expected an http:// or https:// URL" })
      .describe("POSTed the payload as JSON; must match the user's allowedHttpHookUrls"),
    headers: z
      .record(HeaderNameSchema(), HeaderValueSchema())
      .default({})
      .describe(
        "Values may hold $VAR (or $VAR in braces) for variables listed in allowedEnvVars only",
      ),
    allowedEnvVars: z
      .array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: "expected a variable name" }))
      .default([])
      .describe("Variables the headers may interpolate (no others are read)"),
  });

const JudgeFieldsSchema = () => ({
  prompt: z
    .string()
    .trim()
    .min(1, { error: "prompt must not be empty" })
    .max(100_000)
    .describe("What to judge; $ARGUMENTS is replaced by the payload JSON (appended when absent)"),
  model: z
    .string()
    .trim()
    .min(1)
    .optional()
    .describe("A model spec as --model takes it (a small one); default: the session's model"),
});

const PromptFieldsSchema = (handler: HandlerFields) =>
  handler.extend({
    type: z.literal("prompt"),
    ...JudgeFieldsSchema(),
  });

const AgentFieldsSchema = (handler: HandlerFields) =>
  handler.extend({
    type: z.literal("agent"),
    ...JudgeFieldsSchema(),
  });

const McpToolFieldsSchema = (handler: HandlerFields) =>
  handler.extend({
    type: z.literal("mcp_tool"),
    server: z.string().trim().min(1, { error: "server must name a configured MCP server" }),
    tool: z.string().trim().min(1, { error: "tool must name a tool of that server" }),
    input: z
      .record(z.string(), z.unknown())
      .optional()
      .describe(
        "The tool's arguments; a string value may name payload fields as ${tool_input.file_path}. Default: the payload",
      ),
  });

const HOOK_TYPES = ["command", "http", "prompt", "agent", "mcp_tool"] as const;

function typeError(type: unknown): string {
  const expected = `expected one of ${HOOK_TYPES.map((t) => `"${t}"`).join(", ")}`;
  if (type === undefined) return `"type" is missing: ${expected}`;
  return `hook type ${JSON.stringify(type)} is not one acai runs; ${expected}`;
}

/** Each type's schema, from the one handler-fields schema (each extension copies its shape). */
const BRANCHES = {
  command: CommandFieldsSchema,
  http: HttpFieldsSchema,
  prompt: PromptFieldsSchema,
  agent: AgentFieldsSchema,
  mcp_tool: McpToolFieldsSchema,
} satisfies Record<(typeof HOOK_TYPES)[number], (handler: HandlerFields) => z.ZodType>;

type HookType = keyof typeof BRANCHES;
type Branch<T extends HookType> = ReturnType<(typeof BRANCHES)[T]>;

const sharedHandler = once(HandlerFieldsSchema);
const builtBranch = onceEach((type: HookType): z.ZodType => BRANCHES[type](sharedHandler()));

/** One type's schema, built at its first use: a file of command hooks builds only the command one. */
function branch<T extends HookType>(type: T): Branch<T> {
  return builtBranch(type) as Branch<T>;
}

/**
 * `hooks` in a settings file, in Claude Code's shape, one entry per `type`
 * (command, http, prompt, agent, mcp_tool). Timeouts are in seconds, as in
 * Claude Code. `priority`, `failure`, `async`, `env`, `name` and
 * `description` are acai extras; other unknown fields are ignored so Claude
 * Code settings load unchanged.
 */
export const SettingsHookEntrySchema = z.lazy(() =>
  z.discriminatedUnion(
    "type",
    [branch("command"), branch("http"), branch("prompt"), branch("agent"), branch("mcp_tool")],
    {
      error: (issue) =>
        issue.code === "invalid_union"
          ? typeError((issue.input as { type?: unknown })?.type)
          : undefined,
    },
  ),
);

function isHookType(value: unknown): value is HookType {
  return typeof value === "string" && Object.hasOwn(BRANCHES, value);
}

/**
 * Validates one entry as `SettingsHookEntrySchema` does: an object whose `type`
 * is one acai runs is validated by that type's schema alone — what the union
 * does with it — so only the types a file uses are built (decision 0063);
 * anything else goes through the union, for its words.
 */
export function parseSettingsHookEntry(entry: unknown): z.ZodSafeParseResult<SettingsHookEntry> {
  const type = isPlainEntry(entry) ? entry.type : undefined;
  if (isHookType(type)) return branch(type).safeParse(entry, PARSED_ONCE);
  return SettingsHookEntrySchema.safeParse(entry, PARSED_ONCE);
}

function isPlainEntry(value: unknown): value is { type?: unknown } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
export type SettingsHookEntry = z.output<typeof SettingsHookEntrySchema>;

/** acai's hook timeout limits (hooks contract §5), in seconds as settings write them. */
const MIN_HOOK_TIMEOUT_S = 0.1;
const MAX_HOOK_TIMEOUT_S = 600;

/**
 * A settings timeout brought into acai's limits. Claude Code allows longer
 * timeouts, and its settings should run unchanged: the hook runs with the
 * nearest limit, and `note` says so (undefined when nothing changed).
 */
export function clampTimeoutSeconds(seconds: number): { seconds: number; note?: string } {
  if (seconds > MAX_HOOK_TIMEOUT_S) {
    return {
      seconds: MAX_HOOK_TIMEOUT_S,
      note: `timeout ${seconds} s is above acai's ${MAX_HOOK_TIMEOUT_S} s limit; using ${MAX_HOOK_TIMEOUT_S} s`,
    };
  }
  if (seconds < MIN_HOOK_TIMEOUT_S) {
    return {
      seconds: MIN_HOOK_TIMEOUT_S,
      note: `timeout ${seconds} s is below acai's ${MIN_HOOK_TIMEOUT_S} s minimum; using ${MIN_HOOK_TIMEOUT_S} s`,
    };
  }
  return { seconds };
}

const settingsHookGroup = () =>
  z.looseObject({
    matcher: z
      .string({
        error: (issue) =>
          issue.input === undefined
            ? undefined
            : 'expected a Claude Code matcher string (a tool name, "Edit|Write" or a regular expression); matcher objects with keys ({"tool": …, "command": …}) are for executable hooks and HOOK.md',
      })
      .optional()
      .describe(
        "Claude Code matcher: empty or * = all; a name or A|B = exact names; otherwise a regular expression",
      ),
    hooks: z.array(z.unknown()).describe("Entries validated one by one (SettingsHookEntry)"),
    sequential: z
      .boolean()
      .optional()
      .describe(
        "Gemini CLI's: run the group's hooks one after another. Accepted either way: acai asks a gate's hooks in order (persistent hooks and plugins that set ask_ahead may be asked together)",
      ),
  });

/** A `hooks` group of a settings file; its entries are validated one by one. Built at its first parse. */
export const SettingsHookGroupSchema = z.lazy(settingsHookGroup);

/** For JSON Schema output and documentation: the whole section, fully typed. */
const SettingsHooksSchema = z.lazy(() => {
  const group = settingsHookGroup();
  return z.partialRecord(
    EventNameSchema(),
    z.array(
      z.looseObject({
        matcher: group.shape.matcher,
        hooks: z.array(SettingsHookEntrySchema),
        sequential: group.shape.sequential,
      }),
    ),
  );
});

/** JSON Schemas for the toolkit: describe metadata, HOOK.md frontmatter, settings `hooks`. */
export function hookJsonSchemas(): Record<
  "executableMetadata" | "hookMdFrontmatter" | "settingsHooks",
  Record<string, unknown>
> {
  return {
    executableMetadata: z.toJSONSchema(ExecutableMetadataSchema, { io: "input" }),
    hookMdFrontmatter: z.toJSONSchema(HookMdFrontmatterSchema, { io: "input" }),
    settingsHooks: z.toJSONSchema(SettingsHooksSchema, { io: "input" }),
  };
}
