/**
 * What the session hands the interceptor (createHookInterceptor): the hooks,
 * how they are started, the session's answers and limits, and who is told of
 * what they do. Resolved once per run by `createRunContext` (run-context.ts).
 */

import type { PatternNamespaces } from "../../../patterns/namespaces.js";
import type { ProcessStarter } from "../../../process/long-lived.js";
import type { ProcessRunner } from "../../../process/types.js";
import type { HookDefinition } from "../../contract/definition.js";
import type { LateHooks } from "../../contract/late-hooks.js";
import type { RuleCatches } from "../../contract/match.js";
import type { HookFileCheck } from "../../discover/fingerprint.js";
import type { AskUser } from "../activity.js";
import type { AuditSink } from "../audit.js";
import type { NotificationEvent } from "../chain.js";
import type { HandlerServices } from "../handlers/services.js";
import type { TimerFunctions } from "../idle-timer.js";
import type { ValidateToolInput } from "../modify.js";
import type { PluginHooks } from "../plugins/types.js";
import type { RewakeOutcome } from "../turn-signal.js";
import type { OnSendMessage } from "./hook-runs.js";

/** Told the paths a hook's answer asks the session to watch, and which hook asked. */
export type OnWatchPaths = (paths: readonly string[], hook: HookDefinition) => void;

export interface InterceptorOptions {
  /** Every configured hook; those with `disabled` set are never run (the audit log says why). */
  hooks: readonly HookDefinition[];
  /**
   * Judges a hook's `if` (a permission rule) against a tool call with the
   * session's shell parse and paths. Absent: a rule with content always
   * matches (the hook runs).
   */
  ruleCatches?: RuleCatches;
  runner: ProcessRunner;
  /** Starts persistent hooks' processes (hooks.md §6.4); default: acai's own (long-lived.ts). */
  starter?: ProcessStarter;
  /**
   * The runner and starter of one hook, when they differ per hook: the OS
   * sandbox with what the hook declared it needs (source/sandbox/). Default:
   * `runner` and `starter` for every hook. `sandboxed`: what they start runs
   * in the OS sandbox (the audit log's and the hook span's `sandboxed`).
   */
  launchFor?: (hook: HookDefinition) => {
    runner: ProcessRunner;
    starter: ProcessStarter;
    sandboxed: boolean;
  };
  /** Parent environment of hooks (secrets are scrubbed per hook). */
  env: Readonly<Record<string, string>>;
  /** Working directory of hooks and ACAI_PROJECT_DIR; its folder name is `project_name`. */
  projectDir: string;
  /** This agent's name (`--name`), sent to hooks as `agent_name`. */
  agentName?: string;
  /** Hook id → its `CLAUDE_ENV_FILE`, given to session_start hooks (session/shell-env.ts). */
  envFiles?: ReadonlyMap<string, string>;
  /** Where the audit log goes (`<acaiHome>/logs/hooks-audit.jsonl`) unless `audit` is given. */
  acaiHome: string;
  /** Aborting kills every running hook at once. */
  signal?: AbortSignal;
  /**
   * The abort signal of the running turn (REPL Esc), see `trackTurnSignals`.
   * Aborting it kills the hooks running for that turn and starts no further
   * gating hooks in it; observe-only hooks still see how the turn ended.
   */
  turnSignal?: () => AbortSignal | undefined;
  /**
   * An `asyncRewake` hook exited 2: its text becomes a turn of its own
   * (`trackTurnSignals`'s `rewake`). Absent: the wake-up cannot be delivered
   * and a warning says so.
   */
  rewake?: (hookName: string, text: string) => RewakeOutcome;
  /** The session's permission mode, sent to hooks as `permission_mode` (none: not sent); a function: read at each payload. */
  permissionMode?: string | (() => string);
  /** Answers `ask` and permission requests; without it they are denied unless `assumeYes`. */
  askUser?: AskUser;
  assumeYes?: boolean;
  /**
   * A headless run (acai -p): before_tool's `defer` stops the run with the
   * call pending. Otherwise, and inside subagents, a defer asks the permission.
   */
  deferrable?: boolean;
  /** Checks a tool input a hook modified; an invalid one makes that hook fail. */
  validateToolInput?: ValidateToolInput;
  /** Per hook answer (default 10,000). */
  contextCapChars?: number;
  /** How long session_end hooks and unfinished async hooks may take (default 5000 ms). */
  sessionEndBudgetMs?: number;
  /** Consecutive retries of one model request (default 3); past it the request goes ahead. */
  maxRetries?: number;
  /** The session's plugins (hooks/plugins/host.ts): runs their handlers. */
  plugins?: PluginHooks;
  /** What http, prompt, agent and mcp_tool hooks run through (handlers/services.ts). */
  handlers?: HandlerServices;
  /** Hooks plugins register after their `register(api)` returned: they join the run (late.ts). */
  lateHooks?: LateHooks;
  /** The hooks' files as the session loaded them (hooks/fingerprint.ts): a changed one is not run. */
  fingerprints?: HookFileCheck;
  /** Cap per output stream of a hook (default 1 MiB). */
  maxOutputBytes?: number;
  /** Async hooks running at once (default 8); the rest wait in a queue. */
  maxAsyncHooks?: number;
  /** Async hooks waiting for a slot (default 256); past it a hook is dropped, with a warning. */
  asyncQueueLimit?: number;
  now?: () => number;
  audit?: AuditSink;
  /**
   * The hand-off of agent-relay's `sendMessage` (hooks.md §4): called once per
   * answer that carries one, already validated (one message, content ≤ 5,000
   * characters). Without it such a message is not sent, with a warning.
   */
  onSendMessage?: OnSendMessage;
  /**
   * Claude Code's `watchPaths` of a session_start or file_changed answer (the
   * session's file watcher takes them); said once per answer that carries
   * them. Without it, or on another event, they are ignored.
   */
  onWatchPaths?: OnWatchPaths;
  /**
   * Built-in pattern namespaces (`memory`), run in-process before the
   * `pattern` hooks of their namespace; their reply leads the context.
   */
  patternNamespaces?: PatternNamespaces;
  /**
   * Built-in context for the start of the session (the memories of
   * `memory.injectOnStart`): asked when session_start is seen, delivered with
   * the first model request after the session_start hooks' own.
   */
  startContext?: () => Promise<readonly string[]>;
  /** Silence (ms) before the `idle` event, and between repeats while it lasts (default 30,000). */
  idleMs?: number;
  /** Timers of the idle event (tests). */
  idleTimers?: TimerFunctions;
  /**
   * Told when an idle period's hooks are done and answered with context. A
   * consumer waiting for input (a listening agent) may start a turn with it
   * and answer true (taken); else (false) it waits for the next model request.
   */
  onIdle?: (idle: { idleSeconds: number; context: readonly string[] }) => boolean;
  /** `capabilities.unlimitedInjection`: agent-relay's `inject` is not cut at 2,000 characters. */
  unlimitedInjection?: boolean;
  /** Told of every `notification` event as it is raised (the agent's transcript records it). */
  onNotification?: (event: NotificationEvent) => void;
}
