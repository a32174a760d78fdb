import { z } from "zod";
import { ENV_VAR_NAME } from "../../../process/secrets.js";
import { once } from "../../../shared/once.js";
import {
  AGENT_HOOKS_TRIGGERS,
  CLAUDE_EVENT_NAMES,
  claudeOnlyNames,
  GEMINI_EVENTS,
  geminiOnlyNames,
  isHookEventName,
  normalizeAgentHooksEventName,
  normalizeEventName,
} from "../events/names.js";
import { ACAI_TS_EVENTS, RELAY_EVENTS } from "../events/system-names.js";
import { HOOK_EVENTS, type HookEventName } from "../events/table.js";

export { normalizeEventName };

/** acai's, Claude Code's, Gemini CLI's, and the acai-ts design's and agent-relay's names (system-names.ts). */
const ACAI_EVENT_SPELLINGS = [
  ...new Set<string>([
    ...HOOK_EVENTS,
    ...HOOK_EVENTS.map((e) => CLAUDE_EVENT_NAMES[e]),
    ...Object.keys(GEMINI_EVENTS),
    ...Object.keys(ACAI_TS_EVENTS),
    ...Object.keys(RELAY_EVENTS),
  ]),
] as [string, ...string[]];
const AGENT_HOOKS_EVENT_SPELLINGS = [
  ...new Set<string>([...ACAI_EVENT_SPELLINGS, ...Object.keys(AGENT_HOOKS_TRIGGERS)]),
] as [string, ...string[]];

function unknownEventMessage(input: unknown, agentHooks = false): string {
  const claude = claudeOnlyNames();
  const spec = agentHooks
    ? `, or the Agent Hooks names: ${Object.keys(AGENT_HOOKS_TRIGGERS)
        .filter((n) => !isHookEventName(n))
        .join(", ")}`
    : "";
  return `unknown event ${JSON.stringify(input)}; use one of ${HOOK_EVENTS.join(", ")} (or the Claude Code names: ${claude.join(", ")}; Gemini CLI's: ${geminiOnlyNames().join(", ")}; acai-ts's: ${Object.keys(ACAI_TS_EVENTS).join(", ")}; agent-relay's: ${Object.keys(RELAY_EVENTS).join(", ")}${spec})`;
}

/** An event name in either spelling; parses to the canonical name. */
export const EventNameSchema = once(() =>
  z
    .enum(ACAI_EVENT_SPELLINGS, { error: (issue) => unknownEventMessage(issue.input) })
    .transform((name) => normalizeEventName(name) as HookEventName),
);

/**
 * A HOOK.md `trigger` (acai's, Claude Code's or the Agent Hooks spec's names,
 * `pre-tool-call`, …): the event, and the spelling used (sent back as `event_type`).
 */
const AgentHooksTriggerSchema = once(() =>
  z
    .enum(AGENT_HOOKS_EVENT_SPELLINGS, { error: (issue) => unknownEventMessage(issue.input, true) })
    .transform((name) => ({
      event: normalizeAgentHooksEventName(name) as HookEventName,
      spelling: name,
    })),
);

const MATCHER_KEYS = [
  "tool",
  "pattern",
  "command",
  "path",
  "source",
  "session_id",
  "namespace",
] as const;

/** Keys other designs use that acai does not, with what to write instead. */
const FOREIGN_MATCHER_KEYS: Readonly<Record<string, string>> = {
  command_pattern: 'use "command" (a regular expression searched in a Bash command)',
  path_pattern: 'use "path" (a glob) or "pattern" (a regular expression)',
  tool_name: 'use "tool"',
};

/** Why a matcher key is refused: the hook would otherwise fire on every tool call. */
function unknownMatcherKeyMessage(key: string): string {
  const hint = Object.hasOwn(FOREIGN_MATCHER_KEYS, key)
    ? FOREIGN_MATCHER_KEYS[key]
    : `acai's matcher keys are ${MATCHER_KEYS.join(", ")}`;
  return `unknown matcher key ${JSON.stringify(key)}: ${hint} (an ignored key would make the hook run on every event it listens to)`;
}

export const MatcherSchema = once(() =>
  z.strictObject(
    {
      tool: z
        .string()
        .optional()
        .describe(
          "Regular expression matching the whole tool name (other agents' names of built-ins match too)",
        ),
      pattern: z
        .string()
        .optional()
        .describe(
          "Regular expression searched in each string value of the tool input and in the input as JSON",
        ),
      command: z.string().optional().describe("Regular expression searched in a Bash command"),
      path: z
        .string()
        .optional()
        .describe("Glob matched against the tool's file path, relative to the project root"),
      source: z
        .string()
        .optional()
        .describe(
          "Regular expression matching the whole session_start source or notification type",
        ),
      session_id: z
        .string()
        .optional()
        .describe("One session (A3S): the hook runs only in the session with exactly this id"),
      namespace: z
        .string()
        .optional()
        .describe(
          "Regular expression matching the whole namespace of a pattern event (@namespace:target message)",
        ),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? issue.keys.map(unknownMatcherKeyMessage).join("; ")
          : undefined,
    },
  ),
);

const PrioritySchema = once(() => z.int().min(0).max(1000));
const TimeoutMsSchema = once(() => z.int().min(100).max(600_000));
/** A hook that sets no timeout gets `hookDefaults.timeoutMs` from settings, else this. */
export const DEFAULT_HOOK_TIMEOUT_MS = 30_000;
const TIMEOUT_DEFAULT_NOTE = "Default 30000, or hookDefaults.timeoutMs from settings";
const FailureSchema = once(() => z.enum(["open", "closed"]));
/** How many `retry` answers of one hook in a row are honoured (A3S's `max_retries`). */
export const MaxRetriesSchema = once(() => z.int().min(0).max(100));
const MAX_RETRIES_NOTE =
  "How many retry answers of this hook in a row are honoured (default: the session's 3)";
/**
 * Decision 0012: a persistent hook that is a pure function of its input may
 * be asked together with the hooks before it in a chain; its answer counts
 * only if the chain reaches it with the values it was asked about.
 */
export const AskAheadSchema = once(() => z.boolean());
const ASK_AHEAD_NOTE =
  "Persistent hooks only (ignored for spawned ones): may be asked at the same time as the hooks before it; the answer is used only if the chain reaches it unchanged, otherwise it is asked again";
const ModeSchema = once(() =>
  z
    .enum(["spawn", "persistent"])
    .default("spawn")
    .describe(
      "spawn: a process per event; persistent: one process per session answering a JSON request per line",
    ),
);
/** Secret-looking variables a hook may receive (source/process/secrets.ts); shown at trust. */
export const EnvListSchema = once(() =>
  z
    .array(
      z.string().regex(ENV_VAR_NAME, "must be an environment variable name (letters, digits, _)"),
    )
    .max(100),
);

/**
 * What a hook needs from the OS sandbox beyond the session's policy: hosts it
 * connects to (`api.github.com`, `127.0.0.1:8080`) and paths it writes
 * (`./.cache`). Shown by the trust review; a project hook gets only hosts the
 * user's own policy allows (docs/security.md).
 */
export const HookSandboxNeedsSchema = once(() =>
  z
    .object({
      network: z
        .array(
          z
            .string()
            .trim()
            .toLowerCase()
            .regex(/^(\*|(\*\.)?[a-z0-9_.-]+|\[[0-9a-f:]+\])(:\d{1,5})?$/, {
              error: 'a host pattern is "host", "*.host", "host:port" or "*"',
            }),
        )
        .max(64)
        .optional(),
      write: z.array(z.string().trim().min(1).max(4096)).max(64).optional(),
    })
    .describe("acai extra: what the hook needs from the OS sandbox (hosts, paths it writes)"),
);

/** What an executable hook prints for `HOOK_ACTION=describe`. Unknown fields are ignored. */
export const ExecutableMetadataSchema = z.lazy(() =>
  z.looseObject({
    name: z.string().min(1).optional().describe("Defaults to the file name"),
    description: z.string().optional(),
    events: z.array(EventNameSchema()).min(1),
    matcher: MatcherSchema().default({}),
    priority: PrioritySchema().default(100).describe("0–1000, higher runs first"),
    timeout_ms: TimeoutMsSchema().optional().describe(TIMEOUT_DEFAULT_NOTE),
    async: z.boolean().default(false),
    failure: FailureSchema().default("open"),
    env: EnvListSchema().default([]).describe("Secret-looking variables this hook may receive"),
    sandbox: HookSandboxNeedsSchema().optional(),
    max_retries: MaxRetriesSchema().optional().describe(MAX_RETRIES_NOTE),
    mode: ModeSchema(),
    ask_ahead: AskAheadSchema().optional().describe(ASK_AHEAD_NOTE),
  }),
);

/** YAML frontmatter of a HOOK.md (Agent Hooks spec), plus acai's `failure` and `env`. */
export const HookMdFrontmatterSchema = z.lazy(() =>
  z.looseObject({
    name: z.string().min(1).optional().describe("Defaults to the folder name"),
    description: z.string().optional(),
    trigger: AgentHooksTriggerSchema(),
    matcher: MatcherSchema().default({}),
    timeout: TimeoutMsSchema().optional().describe(`Milliseconds. ${TIMEOUT_DEFAULT_NOTE}`),
    async: z.boolean().default(false),
    priority: PrioritySchema().default(100),
    failure: FailureSchema().default("open"),
    max_retries: MaxRetriesSchema().optional().describe(MAX_RETRIES_NOTE),
    env: EnvListSchema()
      .default([])
      .describe("acai extra: secret-looking variables this hook may receive"),
    sandbox: HookSandboxNeedsSchema().optional(),
    mode: ModeSchema(),
    ask_ahead: AskAheadSchema().optional().describe(ASK_AHEAD_NOTE),
  }),
);

/** One readable line from a zod error: `events.0: unknown event "Foo"; ...`. */
export function formatZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.map(String).join(".");
      return where ? `${where}: ${issue.message}` : issue.message;
    })
    .join("; ");
}
