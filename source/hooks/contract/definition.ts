/**
 * The normalized shape of a hook, whichever source it came from (executable
 * with describe metadata, HOOK.md folder, or a settings entry).
 */

export { CLAUDE_EVENT_NAMES } from "./events/names.js";
export { HOOK_EVENTS, type HookEventName } from "./events/table.js";

import type { HookEventName } from "./events/table.js";

export type HookScope = "user" | "project";
export type HookSourceKind = "executable" | "hook_md" | "settings" | "plugin" | "sdk";
/** Which field names the hook receives on stdin. Answers of every dialect are always understood. */
export type HookDialect = "acai" | "agenthooks";

export interface HookMatcher {
  /** Regular expression that must match the whole tool name (aliases of other agents resolve to built-ins). */
  tool?: string;
  /** Regular expression searched in each string value of the tool input and in the input as JSON. */
  pattern?: string;
  /** Regular expression searched in a Bash command. */
  command?: string;
  /** Glob matched against the tool's file path, relative to the project root. */
  path?: string;
  /** For session_start (`startup`/`resume`) and notification (notification type). */
  source?: string;
  /** One session (A3S): the hook runs only in the session with exactly this id. */
  session_id?: string;
  /** For pattern: a regular expression matching the whole namespace (`deploy`, `memory|notes`). */
  namespace?: string;
  /**
   * Claude Code's `if`: a permission rule (`Bash(git push:*)`, `Edit(src/**)`)
   * the tool call must match, as a deny rule would catch it; tested in
   * process before anything starts. Tool events only; ignored elsewhere.
   */
  if?: string;
}

/**
 * How a hook's process serves events: one process per event (`spawn`, the
 * default), or one process per session answering requests line by line
 * (`persistent`, hooks.md §6.4; source/hooks/persistent/); or no process
 * at all: a handler a plugin registered (`plugin`, hooks.md §6.3; source/hooks/plugins/).
 */
export type HookRunMode =
  | "spawn"
  | "persistent"
  | "plugin"
  | "http"
  | "prompt"
  | "agent"
  | "mcp_tool"
  | "callback";

/** How a hook runs; `runHookOnce` (run.ts) switches on `mode`. */
export type HookLaunch =
  | ProcessLaunch
  | PluginLaunch
  | HttpLaunch
  | PromptLaunch
  | AgentLaunch
  | McpToolLaunch
  | CallbackLaunch;

/**
 * The fields every launch has, for what lists, the trust review and the audit
 * show: a hook type that starts no process names what it reaches in `command`
 * (the URL, `prompt`, `agent`, `mcp__server__tool`) and has no `args`.
 */
interface NoProcess {
  command: string;
  args: [];
  viaShell: false;
}

/** `type: "http"` (Claude Code's settings shape): POST the payload to `url`; the body is the answer. */
export interface HttpLaunch extends NoProcess {
  mode: "http";
  url: string;
  /** Header values as written; `$VAR`/`${VAR}` are filled from `allowedEnvVars` only, at each request. */
  headers: Readonly<Record<string, string>>;
  allowedEnvVars: readonly string[];
}

/** `type: "prompt"`: one model request judges the event; `$ARGUMENTS` in `prompt` is the payload. */
export interface PromptLaunch extends NoProcess {
  mode: "prompt";
  prompt: string;
  /** A model spec (`--model`'s syntax); default: the session's model. */
  model?: string;
}

/** `type: "agent"`: a read-only verifier subagent decides (bounded steps and time). */
export interface AgentLaunch extends NoProcess {
  mode: "agent";
  prompt: string;
  model?: string;
}

/** `type: "mcp_tool"`: a tool of a configured MCP server is called with the payload (or `input`). */
export interface McpToolLaunch extends NoProcess {
  mode: "mcp_tool";
  server: string;
  tool: string;
  /** The tool's arguments; string values may name payload fields as `${tool_input.file_path}`. Default: the payload. */
  input?: Readonly<Record<string, unknown>>;
}

/** What a callback hook answers: the JSON a command hook would print (any dialect), or nothing (go on). */
export type CallbackAnswer = Record<string, unknown> | undefined | null;

/**
 * A function a program passed to `query()` (acai-agent, docs/sdk.md): called
 * in process with the payload a command hook would read on stdin, the tool
 * call's id (tool events) and an abort signal; its answer is decoded like a
 * command hook's stdout. Never from a file: only the embedding program has one.
 */
export interface CallbackLaunch extends NoProcess {
  mode: "callback";
  callback: (
    input: Record<string, unknown>,
    toolUseId: string | undefined,
    options: { signal: AbortSignal },
  ) => CallbackAnswer | Promise<CallbackAnswer>;
}

/** The type a user wrote (`command` for executables, HOOK.md scripts and persistent hooks): audit lines and lists show it. */
export type HookType = "command" | "plugin" | "http" | "prompt" | "agent" | "mcp_tool" | "callback";

export function hookTypeOf(hook: Pick<HookDefinition, "launch">): HookType {
  const mode = runModeOf(hook);
  switch (mode) {
    case "spawn":
    case "persistent":
      return "command";
    case "plugin":
    case "http":
    case "prompt":
    case "agent":
    case "mcp_tool":
    case "callback":
      return mode;
    default:
      return mode satisfies never;
  }
}

/** Whether the hook starts a process of its own (and so has files the trust and fingerprint checks pin). */
export function startsProcess(hook: Pick<HookDefinition, "launch">): boolean {
  const mode = runModeOf(hook);
  return mode === "spawn" || mode === "persistent";
}

interface ProcessLaunch {
  /** Absent: `spawn`. */
  mode?: "spawn" | "persistent";
  /** Executable (absolute path) or, when `viaShell`, the shell command line. */
  command: string;
  args: string[];
  /**
   * Settings hooks run through `/bin/sh -c`, as in Claude Code; a one-shot run of a
   * line without shell syntax starts its program directly (hooks/run/direct-command.ts).
   */
  viaShell: boolean;
}

/** A handler registered in-process by a plugin; run by the plugin host, never spawned. */
export interface PluginLaunch {
  mode: "plugin";
  /** The plugin file (absolute path): what lists and the audit log show as the command. */
  command: string;
  /** `["#N"]`: the registration's number. */
  args: string[];
  viaShell: false;
  /** Its number in the plugin's registration order, the same after a restart of the plugin. */
  registration: number;
}

export interface HookDefinition {
  /** Unique and stable: scope, source kind and file plus name/index. */
  id: string;
  name: string;
  description?: string;
  events: HookEventName[];
  matcher: HookMatcher;
  /** 0–1000, default 100; higher runs first. */
  priority: number;
  /** 100–600000, default 30000. */
  timeoutMs: number;
  async: boolean;
  failure: "open" | "closed";
  /**
   * How many `retry` answers of this hook in a row are honoured (A3S's
   * `max_retries`); unset: the session's limit (3).
   */
  maxRetries?: number;
  /**
   * A persistent hook or plugin that may be asked at the same time as the
   * hooks before it in a chain (metadata `ask_ahead`, decision 0012): its
   * answer is used only if the chain reaches it with the values it was
   * asked about. Ignored for spawned hooks.
   */
  askAhead?: boolean;
  /**
   * Its allow-list: variables it receives although the secrets policy
   * (source/process/secrets.ts) removes them from every hook's environment.
   * From describe metadata `env`, HOOK.md frontmatter `env`, or a settings
   * entry's `env`. Shown by the trust review.
   */
  env: string[];
  /** What it needs from the OS sandbox (hosts, paths it writes): metadata, frontmatter or settings `sandbox`. */
  sandbox?: { network?: string[]; write?: string[] };
  scope: HookScope;
  sourceKind: HookSourceKind;
  /** Absolute path of the file that defines the hook (executable, HOOK.md or settings file). */
  file: string;
  dialect: HookDialect;
  launch: HookLaunch;
  /**
   * HOOK.md hooks: the event as their `trigger` spelled it (`before_tool`,
   * `pre-tool-call`, …), sent back as `event_type` (the spec renamed its events).
   * Settings hooks under a Gemini CLI name (`BeforeTool`, …): that name, and
   * with it Gemini's payload (gemini-payload.ts).
   */
  trigger?: string;
  /** Claude Code's `once`: run at most once per session. */
  once?: boolean;
  /** Claude Code's `statusMessage`: shown while the hook runs (the REPL's status line, `hook_start`). */
  statusMessage?: string;
  /**
   * Claude Code's `asyncRewake` (implies `async`): an exit 2 of this
   * background hook wakes the agent with its text as a new prompt turn.
   */
  asyncRewake?: boolean;
  /**
   * Configured but not to run, and why (`enabled: false` in its file,
   * `disableAllHooks`, `acai hooks disable`): kept so the audit log can say so.
   */
  disabled?: string;
  /**
   * Place in configuration order (the registry numbers hooks: folders, files in a
   * folder by name, then settings in file order); ties of priority and scope run in it.
   */
  order?: number;
}

/** The hook's run mode (`spawn` unless its launch says otherwise). */
export function runModeOf(hook: Pick<HookDefinition, "launch">): HookRunMode {
  return hook.launch.mode ?? "spawn";
}

/** Whether `hook` asked to be asked ahead, and asking it costs only a request to something running. */
export function canAskAhead(hook: HookDefinition): boolean {
  if (hook.askAhead !== true) return false;
  const mode = runModeOf(hook);
  return mode === "persistent" || mode === "plugin";
}

/**
 * A hook that asked to be asked ahead but is spawned: accepted, without
 * effect (a process started for an answer that may not be used costs more
 * than the round trip saved). Said once at load, with the way to get it.
 */
export function askAheadIgnoredWarning(hook: HookDefinition): string | undefined {
  if (hook.askAhead !== true || canAskAhead(hook)) return undefined;
  return `hook "${hook.name}" (${hook.file}) sets ask_ahead, which has no effect on a spawned hook: only persistent hooks and plugins are asked ahead (add "mode": "persistent")`;
}

export interface BrokenHook {
  file: string;
  scope: HookScope;
  sourceKind: HookSourceKind;
  name?: string;
  reason: string;
}
