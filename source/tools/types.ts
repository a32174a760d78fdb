import type { AgentEvent } from "../agent/events.js";
import type { Verdict } from "../agent/verdicts.js";
import type { ProcessRunner } from "../process/types.js";

/** JSON Schema object as given to the model and published to hook authors. */
export type JsonSchema = Record<string, unknown>;

export type InputValidation = { ok: true; value: unknown } | { ok: false; error: string };

export interface ToolContext {
  cwd: string;
  signal: AbortSignal;
  runner: ProcessRunner;
  /** Environment handed to child processes (Bash, dynamic tools). */
  env: Readonly<Record<string, string>>;
  /**
   * Variables the session set for the user's shell (session_start hooks'
   * `CLAUDE_ENV_FILE`): the Bash tool layers them over `env`; other tools ignore them.
   */
  shellEnv?: Readonly<Record<string, string>>;
  /** The model's id of the call being run (the Task tool passes it to its subagent). */
  toolCallId?: string;
  /**
   * Write/Edit/Read: where the permission check judged the file to land
   * (links resolved, `tools/landing.ts`). The tool works on that file or not
   * at all: if the path now lands elsewhere (a link swapped in since), it refuses.
   */
  landing?: string;
  /**
   * Whether a file a search visits (Grep, Glob) may be read or listed: false
   * when a `Read(...)` deny or ask rule of the session catches it (the agent
   * passes its policy's check). None: every file may.
   */
  readable?: (file: string) => boolean;
}

/**
 * What a tool returns. `output` is the text the model sees; `response` is the
 * structured value hooks receive as `tool_response` (for Bash
 * `{stdout, stderr, exit_code, interrupted}`).
 */
export type ToolResult =
  | {
      ok: true;
      output: string;
      response: unknown;
      /**
       * The file the tool wrote (absolute): the agent tells the model when an
       * after_tool hook changes it afterwards (a formatter).
       */
      wrote?: string;
    }
  | { ok: false; error: string; interrupted: boolean; response?: unknown };

export interface Tool {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  /** Validate (and default) an input, from the model or from a hook's modification. */
  validate(input: unknown): InputValidation;
  /** Runs a validated input. Must not throw for ordinary failures: return `ok: false`. */
  execute(input: unknown, context: ToolContext): Promise<ToolResult>;
  /**
   * A tool whose run raises agent events (the Task tool: its subagent's
   * events). The agent uses it instead of `execute`, passes its events to its
   * consumer (so hooks see them) and hands back their verdicts.
   */
  stream?(
    input: unknown,
    context: ToolContext,
  ): AsyncGenerator<AgentEvent, ToolResult, Verdict | undefined>;
}
