/**
 * What one hook event is, as its module states it (one module per event,
 * `before-tool.ts` …): its names in every dialect, gate or observer, what
 * matchers see, which answers it honours, what a modify may change, its stdin
 * schema and the builder typed from it, its `acai hooks test` sample and its
 * `acai hooks init` help. `defineEvent` checks a module against its own agent
 * event and adds the schema; table.ts assembles the modules.
 *
 * Codex's per-event modules (`codex-rs/hooks`) were the model.
 */
import type { z } from "zod";
import type { AgentEvent, AgentEventType } from "../../../agent/events.js";
import type { GateState } from "../gate-state.js";
import type { AgentEventOf, ExtrasContext, Payload } from "./fields.js";
import { type EventSchema, eventSchema, type PayloadShape } from "./payload-parts.js";

/**
 * Answers beyond continue (and context) that an event can act on. `suppress`:
 * agent-relay's answer dropping what the event would deliver (message_received).
 */
export type Honoured =
  | "block"
  | "modify"
  | "ask"
  | "allow"
  | "skip"
  | "stop"
  | "retry"
  | "suppress"
  | "defer";
/**
 * What a `modify` may replace, by the answer's field name: `request`
 * (llm_request), `response` (llm_response), `tool_calls` (drop_tool_calls),
 * `follow_up` (follow_up / tailToolCallRequest).
 */
type Changeable =
  | "input"
  | "prompt"
  | "output"
  | "request"
  | "response"
  | "tool_calls"
  | "follow_up";

/** What a matcher of the event is tested against (hooks.md §2). */
export interface MatchFields {
  toolName?: string;
  toolInput?: unknown;
  source?: string;
  /** Other agents' words for the same source, where they differ (a matcher may name any). */
  sourceAliases?: readonly string[];
  /** The `pattern` event's namespace (`namespace` matchers). */
  namespace?: string;
}

/** What `acai hooks init` writes into a new hook's comments for this event. */
export interface EventHelp {
  /** The fields this event adds to the common ones. */
  fields: string;
  /** What an answer can do on this event. */
  can: string;
  /** A matcher worth starting from, if any. */
  matcher?: Record<string, string>;
  /** An answer that changes something on this event, beyond block and context. */
  change?: { label: string; answer: Record<string, unknown> };
}

/** What a sample (`acai hooks test --event`) is built from: the command's choices and a real tool's result. */
export interface SampleContext {
  toolName: string;
  /** The sample input of `toolName` (cli/hooks/samples.ts `sampleToolInput`). */
  input: Record<string, unknown>;
  projectDir: string;
  sessionId: string;
  transcriptPath: string;
  model: string;
  /** What the real built-in returns for the sample input (run only when a sample asks). */
  toolResult(): Promise<{ output: string; response: unknown }>;
}

/** The row's facts, without the functions. */
interface RowFacts<N extends string, T extends AgentEventType> {
  /** acai's name of the event (`event` in every payload). */
  name: N;
  /**
   * The AgentEvent it comes from, as a literal (the agent emits it as
   * `type: RAISES.<name>`; agent/raises.ts is generated from these, and the
   * interceptor maps the agent event back here). A new event's agent event
   * takes the event's own name unless an existing one already says it.
   */
  agentEvent: T;
  /**
   * The event this one follows where events are listed (docs, messages, the
   * SDK's union); none for the first. scripts/generate-events.mjs orders the
   * generated module list by it.
   */
  listedAfter?: string;
  /** Claude Code's `hook_event_name`; acai's own name where Claude Code has no such event. */
  claude: string;
  /**
   * Agent Hooks spec names: `name` is sent as `event_type` and accepted as a
   * HOOK.md trigger, `aliases` are older spellings still accepted. None: the
   * spec lacks the event (acai's name is sent and accepted).
   */
  agentHooks?: { name: string; aliases?: readonly string[] };
  /**
   * Gemini CLI's names of the event, accepted as settings keys (its
   * `"hooks": {"BeforeTool": [...]}`); payloads keep the Claude Code
   * spelling. A name Claude Code also uses names the same event. None:
   * Gemini CLI lacks the event.
   */
  gemini?: readonly string[];
  /** gate: hooks chain and the agent waits for the verdict; observe: hooks run at once. */
  kind: "gate" | "observe";
  /** tool: `tool`/`pattern`/`command`/`path` apply; source: `source`; namespace: `namespace`; none: none of them. */
  subject: "tool" | "source" | "namespace" | "none";
  /** The answers that take effect; any other is ignored with a warning. */
  honours: readonly Honoured[];
  /** What a `modify` may replace on this event. */
  changes: readonly Changeable[];
  /** Plain (non-JSON) stdout is context for the model, as in Claude Code. */
  plainStdoutIsContext: boolean;
  /**
   * How its async hooks run: in the background, not waited for; or inline,
   * like its other hooks (session_end: nothing comes after it to wait for them).
   */
  asyncHooks: "background" | "inline";
  /** What a block does, in words (`acai hooks test` prints it). */
  onBlock: string;
  /**
   * A gate whose hooks all run even after one blocks, the model getting every
   * block reason in order (the stop gates: a checklist, decision 0027).
   * Absent: the first block ends the chain.
   */
  blocks?: "all";
  /**
   * What `ask` and `allow` mean here. hint (before_tool): the chain's say on
   * the permission check that follows (an ask asks even where a rule allows,
   * an allow spares the question unless a deny or ask rule holds). decision
   * (permission_request): allow permits the call for the user, ask is no
   * decision (the user is asked, as when no hook answers). None: ask asks the
   * user; allow goes on.
   */
  permission?: "hint" | "decision";
  /**
   * How the interceptor answers it. None: its plan's hooks (at once when none
   * match). permission: always, the user asked when no hook decides.
   * session_end: within the session-end budget, also after an abort.
   */
  route?: "permission" | "session_end";
  /** Context that async hooks gave since the last model request reaches the model with this event. */
  carriesPendingContext?: boolean;
  /** Its hooks get `CLAUDE_ENV_FILE`: what they export there reaches the Bash tool (Claude Code's SessionStart). */
  claudeEnvFile?: boolean;
  /**
   * Its names in plugin registrations (docs/plugins.md): OpenClaw's hook
   * names (kebab-case; snake_case is accepted too), A3S's event type
   * (PascalCase, also accepted in snake_case).
   */
  plugins?: { openclaw?: readonly string[]; a3s?: { name: string; snake: string } };
  help: EventHelp;
}

/** One event's module, typed against its own agent event and its stdin schema. */
export interface EventModule<
  N extends string = string,
  T extends AgentEventType = AgentEventType,
  S extends PayloadShape = PayloadShape,
> extends RowFacts<N, T> {
  /**
   * The event's own stdin fields (beyond the common ones), as zod: the JSON Schema and the SDK's types
   * come from it. A function, called the first time `schema` is read: `acai -p` builds none (decision 0054).
   */
  payload: () => S;
  /** Its stdin fields (Claude Code's names), with the values earlier hooks replaced. */
  fields(ev: AgentEventOf<T>, state: GateState): FieldsOf<S>;
  /** Fields only the Agent Hooks dialect receives. */
  agentHooksExtras?(ev: AgentEventOf<T>, at: ExtrasContext): Payload;
  /** What matchers see, with the values earlier hooks replaced. */
  matchOn(ev: AgentEventOf<T>, state: GateState): MatchFields;
  /** The agent event behind a sample, with plausible values everywhere. */
  sample(s: SampleContext): AgentEventOf<T> | Promise<AgentEventOf<T>>;
}

/** What a builder returns: the schema's own fields, typed as the schema reads them. */
type FieldsOf<S extends PayloadShape> = z.input<z.ZodObject<S>>;

/** A module as `defineEvent` returns it: the whole stdin schema added. */
export type DefinedEvent<
  N extends string,
  T extends AgentEventType,
  S extends PayloadShape,
> = EventModule<N, T, S> & { schema: EventSchema<N, S> };

/**
 * An event module; its whole stdin schema (common fields included) is added
 * here. Its agent event is the one the agent's emit sites name it by:
 * `RAISES` (agent/raises.ts) is generated from the modules, so the two cannot
 * disagree.
 */
export function defineEvent<N extends string, T extends AgentEventType, S extends PayloadShape>(
  module: EventModule<N, T, S>,
): DefinedEvent<N, T, S> {
  let schema: EventSchema<N, S> | undefined;
  return {
    ...module,
    // Built when first read (the SDK's schemas, their JSON, tests), not when the module loads.
    get schema() {
      schema ??= eventSchema(module.name, module.claude, module.payload());
      return schema;
    },
  };
}

/**
 * A row as every other module reads it: called only with its own agent event
 * (`HOOK_EVENT_OF` picks the row by that event's type), which the type system
 * cannot follow through a lookup.
 */
export interface EventRow extends RowFacts<string, AgentEventType> {
  fields(ev: AgentEvent, state: GateState): Payload;
  agentHooksExtras?(ev: AgentEvent, at: ExtrasContext): Payload;
  matchOn(ev: AgentEvent, state: GateState): MatchFields;
  sample(s: SampleContext): AgentEvent | Promise<AgentEvent>;
  schema: z.ZodType;
}

/** The answers of a gate. */
export const GATE: readonly Honoured[] = ["block", "modify", "ask", "skip", "stop"];
/** What a block does on an observe-only event. */
export const OBSERVED = "ignore it: hooks of this event only observe";

export const matchNothing = (): MatchFields => ({});

/** A tool call's name and input, as replaced by earlier hooks. */
export const toolAsReplaced = (
  ev: { toolName: string; input: unknown },
  state: GateState,
): MatchFields => ({
  toolName: ev.toolName,
  toolInput: "toolInput" in state ? state.toolInput : ev.input,
});

/** A tool call's name and input, as the agent gave them. */
export const toolOf = (ev: { toolName: string; input: unknown }): MatchFields => ({
  toolName: ev.toolName,
  toolInput: ev.input,
});
