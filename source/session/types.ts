import type { RunInput, TurnInput } from "../agent/types.js";
import type { BrokenHook, HookDefinition } from "../hooks/contract/definition.js";
import type { AskUser, HookActivityEvent, InterceptedEvent } from "../hooks/run/activity.js";
import type { McpServerEntry } from "../mcp/config.js";
import type { PermissionMode } from "../permissions/rules.js";
import type { PermissionFlags } from "../permissions/sources.js";
import type { ProjectChanges } from "../project/changes.js";
import type { TrustedLink } from "../project/links.js";
import type { SessionRelay } from "../relay/session-relay.js";
import type { WatchFolder } from "./path-watcher.js";
import type { ResumeRequest } from "./resume/find.js";

/** `notification_type` values acai sends (Claude Code's). */
type NotificationType = "idle_prompt" | "permission_prompt";

/** How project hooks are treated for this session. */
export type ProjectHooksMode =
  | "require-trust" // run them only if the current set is trusted (default)
  | "trust-once" // --trust-project-hooks: run them this time without recording trust
  | "off"; // --no-project-hooks: neither the project's hooks nor its dynamic tools

/** What can be shown about an untrusted project hook (or dynamic tool) without running it. */
export interface UntrustedHookInfo {
  /** Absent for hooks; `tool` for an executable in `<project>/.acai/tools/`. */
  kind?: "tool";
  name: string;
  file: string;
  events: string[];
  matcher?: string;
  command?: string;
  /** E.g. "not described yet" for an executable acai has never run. */
  note?: string;
  /** Why the hook would not load, if it is broken. */
  problem?: string;
  /** Secret-looking variables the hook asks to receive (its `env` list), when known. */
  env?: string[];
  /** What it asks of the OS sandbox (`network …; writes …`), when known. */
  sandbox?: string;
}

/** What a project settings file would change: shown at trust, applied only after it. */
export interface ProjectSettingsSummary {
  file: string;
  /** Settings that send the conversation (and the API key) elsewhere or pick what runs. */
  model?: string;
  baseUrl?: string;
  /** Every other field it sets, as `name` or `hookDefaults.timeoutMs=100`. */
  other: string[];
}

/** Everything the user is asked to trust, and what changed since the last time. */
export interface ProjectReview {
  /** The project root (found by walking up from the working directory). */
  root: string;
  items: UntrustedHookInfo[];
  settings: ProjectSettingsSummary[];
  changes: ProjectChanges;
  /** Project MCP servers that will not start: a user server has their name (mcp/config.ts). */
  mcpNameClashes?: string[];
  /** Symbolic links in the trusted set and where they lead (project/links.ts). */
  links?: TrustedLink[];
  /** Set when the project cannot be hashed completely: then it cannot be trusted. */
  incomplete?: string;
}

export interface ProjectTrustState {
  status: "no-project-hooks" | "trusted" | "untrusted";
  untrusted: UntrustedHookInfo[];
  review: ProjectReview;
  /** Records trust for the current set (what `acai hooks trust` does). */
  trust(): Promise<void>;
  /**
   * Once trusted: describes the project's executables, records the secrets
   * they ask for as confirmed and returns the lines showing them
   * (session/env-requests.ts).
   */
  confirmEnvRequests?(): Promise<string[]>;
}

export interface SessionFlags {
  model?: string;
  baseUrl?: string;
  maxSteps?: number;
  /** `--system-prompt`: replaces acai's own system prompt. */
  systemPrompt?: string;
  /** `--append-system-prompt`: added at its end. */
  appendSystemPrompt?: string;
  projectHooks: ProjectHooksMode;
  assumeYes?: boolean;
  /** `--permission-mode` (or `--dangerously-skip-permissions`), `--allowedTools`, `--disallowedTools`. */
  permissions?: PermissionFlags;
  /** `--continue` (the latest session of this project) or `--resume ID`. */
  resume?: ResumeRequest;
  /** `--name`: the agent name on the relay. */
  agentName?: string;
  /** `acai -p --listen`: shown as listening in `acai agents`. */
  listen?: boolean;
}

export interface PrepareSessionOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  flags: SessionFlags;
  /** The REPL asks the user; headless runs leave it out (deny unless assumeYes). */
  askUser?: AskUser;
  /** The interface the session runs in, session_start's `args.ui` (Agent Hooks): `shell` (REPL) or `print` (`acai -p`). */
  ui?: "shell" | "print";
  /**
   * Hooks of the program that embeds acai (`query()`'s callbacks, docs/sdk.md):
   * user scope, after the hooks found in files, in the same chains.
   */
  inProcessHooks?: readonly HookDefinition[];
  /**
   * MCP servers the client sent (ACP's `session/new`, docs/acp.md): started
   * as the user's own after the configured ones; one named like a configured
   * server is refused with a warning (mcp/config.ts `withClientServers`).
   */
  clientMcpServers?: readonly McpServerEntry[];
  /** Interrupts preparing (the describe steps of hooks and dynamic tools): it then rejects. */
  signal?: AbortSignal;
  /**
   * The project set (its fingerprint) an earlier session of this run took
   * with `trust-once`: a later one takes the project only if it is unchanged,
   * else refuses with the review (session/trust.ts).
   */
  projectSetTaken?: string | null;
  /** `fs.watch` for the run's watchers of settings files and file_changed paths (tests count them). */
  watchFolder?: WatchFolder;
  /**
   * The process is one of acai's own commands: the Bash grammar stays in V8's baseline
   * WebAssembly compiler, a V8 flag set for the whole process (parser.ts, decision 0072).
   * Left out by a program that embeds acai, whose process keeps V8's defaults.
   */
  shellGrammarBaselineOnly?: boolean;
}

/** A run of the session: the agent's input, and who may act on what idle hooks inject. */
export interface SessionRunInput extends RunInput {
  /**
   * agent-relay's onIdle inject, for a consumer that starts a turn with it
   * (`--listen`): answer true when it did (the text then goes with that turn's
   * prompt only), false to leave it for the next model request.
   */
  onIdle?: (idle: { idleSeconds: number; context: readonly string[] }) => boolean;
  /**
   * An `asyncRewake` hook's wake-up turn, for a consumer whose `prompts` is a
   * queue of its own (the REPL): queue a turn with this prompt like any other
   * (its own abort signal) and return it, or undefined when the queue is
   * closed. Absent: the wake-up turn is taken before the next prompt.
   */
  wake?: (prompt: string) => TurnInput | undefined;
}

export interface PreparedSession {
  sessionId: string;
  modelId: string;
  cwd: string;
  /** The project root hooks run in and trust is recorded for (cwd or a folder above it). */
  projectDir: string;
  /** The settings in effect (the project's only once trusted): base URL and price overrides. */
  settings: { baseUrl?: string; pricing?: Record<string, { input: number; output: number }> };
  acaiHome: string;
  transcriptPath: string;
  /** The permission mode tool calls are checked in when the session starts (docs/permissions.md). */
  permissionMode: PermissionMode;
  /** The mode and rules the REPL may change while the session runs (absent: they cannot change). */
  permissions?: PermissionControls;
  /** How long session_end hooks may take (settings `hookDefaults.sessionEndBudgetMs`; default 5000 when absent). */
  sessionEndBudgetMs?: number;
  hooks: {
    loaded: HookDefinition[];
    broken: BrokenHook[];
    projectHooksEnabled: boolean;
    /** The fingerprint of the project set as this session found it (null: the project controls nothing). */
    projectSet?: string | null;
  };
  /** The OS sandbox in force, in one line (`--verbose`, `acai doctor`): docs/security.md. */
  sandboxLine?: string;
  /** Warnings gathered while loading (broken hooks, broken dynamic tools, ...). */
  warnings: string[];
  /** `--resume` of a run a before_tool hook deferred: the calls it stopped at (run first). */
  deferredCalls?: number;
  /** This session's place among agents (its name, messages); absent when the relay is off. */
  relay?: SessionRelay;
  /** Drives Agent.run() through the hook interceptor: the one loop every mode uses. */
  run(input: SessionRunInput): AsyncGenerator<InterceptedEvent, void, undefined>;
  /**
   * Runs the session's `notification` hooks now (the REPL's idle prompt) and
   * resolves with their activity when they are done. Only while `run()` is
   * going on; otherwise nothing runs. The `notification` event itself is
   * yielded by `run()` (at once, even while the agent waits for a prompt) and
   * recorded in the transcript. A hook's `ask` notifies by itself.
   */
  notify(message: string, notificationType: NotificationType): Promise<HookActivityEvent[]>;
}

type RuleOutcome = { ok: true; where: string } | { ok: false; error: string };

/** The session's permission mode and kept rules, as the REPL changes them (made by permission-controls.ts). */
export interface PermissionControls {
  /** The modes Shift-Tab goes through, in order. */
  readonly modes: readonly PermissionMode[];
  mode(): PermissionMode;
  setMode(mode: PermissionMode): void;
  /** Whether a prompt may offer to keep this rule (`keepableRule`). */
  keepable(rule: string): boolean;
  /** Why a rule cannot be kept in the project (`--no-project`, untrusted); undefined: it can. */
  readonly projectRulesOff: string | undefined;
  /** An allow rule in force for the rest of this session. */
  allowForSession(rule: string): RuleOutcome;
  /** An allow rule written to the project's settings, and in force now. */
  allowForProject(rule: string): Promise<RuleOutcome>;
}
