/** The record of a run of a hook type that starts no process (http, prompt, agent, mcp_tool). */
import type { Decision } from "../../contract/decision.js";
import type { HookDefinition, HookEventName } from "../../contract/definition.js";
import type { HookRunRecord } from "../run-record.js";

export interface HandlerRun {
  /** What was sent: the request body, the prompt, the tool's input. */
  sent: string;
  /** What came back: the response body, the model's text, the tool's text. */
  answer: string;
  durationMs: number;
  decision: Decision;
  timedOut?: boolean;
  aborted?: boolean;
  outputLimit?: boolean;
}

export function handlerRecord(
  hook: HookDefinition,
  event: HookEventName,
  run: HandlerRun,
): HookRunRecord {
  return {
    hookId: hook.id,
    event,
    stdin: run.sent,
    command: hook.launch.command,
    args: [],
    exitCode: null,
    signal: null,
    stdout: run.answer,
    stderr: "",
    durationMs: run.durationMs,
    timedOut: run.timedOut ?? false,
    aborted: run.aborted ?? false,
    outputLimit: run.outputLimit ?? false,
    decision: run.decision,
  };
}
