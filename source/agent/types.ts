import type { LanguageModel, ModelMessage } from "ai";
import type { PermissionPolicy } from "../permissions/decide.js";
import type { ProcessRunner } from "../process/types.js";
import type { Tool } from "../tools/types.js";
import type {
  IncomingMessage,
  InstructionFile,
  SessionArgs,
  SessionEndReason,
  SessionSandboxInfo,
  ToolCallSummary,
} from "./event-data.js";

export interface AgentOptions {
  model: LanguageModel;
  /** Shown in events and sent to hooks (`model`). */
  modelId: string;
  /** What the OS sandbox of tools and hooks is in this session, for session_start (source/sandbox/report.ts). */
  sandbox?: SessionSandboxInfo;
  /** How the session was started, for session_start's `args` (Agent Hooks). */
  sessionArgs?: SessionArgs;
  tools: Tool[];
  cwd: string;
  /** Environment handed to tools' child processes. */
  env: Readonly<Record<string, string>>;
  /**
   * Variables the session adds to the user's shell (the Bash tool), asked
   * before each tool call: what session_start hooks wrote to `CLAUDE_ENV_FILE`.
   */
  shellEnv?: () => ShellEnvironment;
  runner: ProcessRunner;
  /**
   * Whether each tool call may run (docs/permissions.md): asked after
   * `tool_call_start`; an `ask` becomes a `permission_request`. Required: an
   * agent that runs tools is never built without the session's policy (a
   * subagent gets its parent's, subagents/run.ts); `Agent` throws without one.
   */
  permissions: PermissionPolicy;
  sessionId: string;
  /** JSONL transcript written by the agent (directories are created). */
  transcriptPath: string;
  /** Replaces the default system prompt (`defaultSystemPrompt`). */
  systemPrompt?: string;
  /**
   * The instruction files in the system prompt (AGENTS.md, …), in order:
   * `instructions_loaded` is raised for each once the session starts.
   */
  instructionFiles?: readonly InstructionFile[];
  /** Model requests per turn (default 50). */
  maxSteps?: number;
  /** Consecutive `stop_request` blocks before the agent stops anyway (default 8). */
  maxStopBlocks?: number;
  /** Retries of a failed model request, done by the AI SDK (default 2). */
  maxModelRetries?: number;
  /** Consecutive `retry` verdicts honoured on one `model_request` (default 3). */
  maxHookRetries?: number;
  /**
   * Follow-up steps per turn for pattern answers that came after the model
   * had finished (default 3): the answer is not lost, and a model that keeps
   * answering itself with patterns cannot loop.
   */
  maxPatternFollowUps?: number;
  /** `@namespace:` lines read per message (default 20; relay.config's `options.maxPatternsPerMessage`). */
  maxPatterns?: number;
  /**
   * The conversation of the session being picked up again (`--continue`,
   * `--resume`): it is sent as it was, and the transcript goes on after it.
   */
  resume?: ResumedConversation;
  /**
   * The model's context window in tokens: the conversation is compacted when
   * the last request used `compactAt` of it (default 0.8). Unknown: only a
   * context-length error from the server compacts.
   */
  contextWindow?: number;
  compactAt?: number;
  /** Clock in ms (default `Date.now`). */
  now?: () => number;
}

interface ResumedConversation {
  messages: readonly ModelMessage[];
  /**
   * Tool calls a before_tool hook deferred (their results are missing from
   * `messages`): run first, with every gate asked again.
   */
  pending?: readonly ToolCallSummary[];
  /**
   * Hook context the session had not sent yet (a blocked prompt's hook
   * context): sent with the next model request, as if queued in this run.
   */
  context?: readonly string[];
  /** The last conversation line's uuid (`parentUuid` of the next). */
  parentUuid: string | null;
}

export interface ShellEnvironment {
  vars: Readonly<Record<string, string>>;
  /** New problems reading them (each said once); the agent raises them as warnings. */
  warnings: readonly string[];
}

export interface TurnInput {
  prompt: string;
  /**
   * A command instead of a prompt: `compact` compacts the conversation now
   * (`/compact [instructions]`: `prompt` holds the instructions).
   */
  command?: "compact";
  /** The turn answers this message from another agent (message_received runs first; `prompt` is unused). */
  message?: IncomingMessage;
  /** Aborts this turn only (REPL Esc); the session goes on with the next prompt. */
  signal?: AbortSignal;
}

export interface RunInput {
  /** One turn per prompt, in order. The REPL passes an async queue, `acai -p` a single prompt. */
  prompts: Iterable<TurnInput> | AsyncIterable<TurnInput>;
  /** Aborts the whole session: running model stream and tools, then `session_end` "aborted". */
  signal?: AbortSignal;
  /**
   * The `session_end` reason when the prompts run out (default "completed"),
   * asked at that moment: the REPL says "user_exit" after Ctrl-D or /exit.
   */
  endReason?: () => SessionEndReason;
  /** `clear`: the session that follows a /clear (Claude Code's source). */
  source?: "startup" | "resume" | "clear";
  /** Messages from other agents (the relay); see `Inbox`. */
  inbox?: Inbox;
}

/** Where the agent takes messages from other agents and tells what became of them. */
export interface Inbox {
  /**
   * Messages to hand to the model at its next request (`acai -p`). The REPL and
   * `--listen` give none here: they queue messages as turns (`TurnInput.message`).
   */
  take(): IncomingMessage[];
  /** The message reached the model, or a hook suppressed it: it will not come again. */
  settle(id: string): void;
}
