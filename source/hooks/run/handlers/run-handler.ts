/**
 * One run of a hook type that starts no process: `http`, `prompt`, `agent`,
 * `mcp_tool`. Each gets the same payload, timeout, output cap and failure
 * policy as a command hook, and the same record for the audit log; what it
 * needs from the session comes in `options.handlers` (services.ts).
 */
import { type Decision, failed } from "../../contract/decision.js";
import type {
  AgentLaunch,
  HookDefinition,
  HookEventName,
  McpToolLaunch,
  PromptLaunch,
} from "../../contract/definition.js";
import { payloadText } from "../../contract/payload-text.js";
import { decodeRunResult } from "../decode.js";
import type { HookRunRecord } from "../run-record.js";
import { runHttpHook } from "./http.js";
import {
  JUDGE_SYSTEM_PROMPT,
  judgedDecision,
  judgePrompt,
  VERIFIER_SYSTEM_PROMPT,
} from "./judged.js";
import { mcpToolInput } from "./mcp-input.js";
import { handlerRecord } from "./record.js";
import type { HandlerServices } from "./services.js";

const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
/** An agent hook's verifier takes at most this many steps (Claude Code: 50 turns). */
const VERIFIER_MAX_STEPS = 50;

export interface HandlerRunOptions {
  env: Readonly<Record<string, string>>;
  signal?: AbortSignal;
  maxOutputBytes?: number;
  handlers?: HandlerServices;
}

export async function runHandler(
  hook: HookDefinition,
  event: HookEventName,
  payload: unknown,
  options: HandlerRunOptions,
): Promise<HookRunRecord> {
  let body: string;
  try {
    body = payloadText(payload, hook.dialect);
  } catch (error) {
    const text = `was not run: its payload cannot be serialized (${(error as Error).message})`;
    return handlerRecord(hook, event, {
      sent: "",
      answer: "",
      durationMs: 0,
      decision: failed(text),
    });
  }
  const launch = hook.launch;
  const handlers = options.handlers ?? {};
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  switch (launch.mode) {
    case "http":
      if (handlers.http === undefined) return missing(hook, event, "http");
      return runHttpHook(hook, launch, event, body, {
        client: handlers.http,
        env: options.env,
        maxOutputBytes,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
    case "prompt":
    case "agent":
      return runJudged(hook, launch, event, body, options);
    case "mcp_tool":
      return runMcpTool(hook, launch, event, payload, { ...options, maxOutputBytes });
    default:
      return missing(hook, event, launch.mode ?? "spawn");
  }
}

function missing(hook: HookDefinition, event: HookEventName, type: string): HookRunRecord {
  const text = `is a ${type} hook, but nothing here runs ${type} hooks`;
  return handlerRecord(hook, event, {
    sent: "",
    answer: "",
    durationMs: 0,
    decision: failed(text),
  });
}

/** The hook's own time limit joined with the session's signal; says which one fired. */
function timed(hook: HookDefinition, signal: AbortSignal | undefined) {
  const timeout = AbortSignal.timeout(hook.timeoutMs);
  const both = signal === undefined ? timeout : AbortSignal.any([signal, timeout]);
  return {
    signal: both,
    failure(error: unknown): { decision: Decision; timedOut: boolean; aborted: boolean } {
      if (signal?.aborted) return { decision: failed("aborted"), timedOut: false, aborted: true };
      if (timeout.aborted) {
        const text = `timed out after ${hook.timeoutMs} ms`;
        return { decision: failed(text), timedOut: true, aborted: false };
      }
      const text = error instanceof Error ? error.message : String(error);
      return { decision: failed(text), timedOut: false, aborted: false };
    },
  };
}

async function runJudged(
  hook: HookDefinition,
  launch: PromptLaunch | AgentLaunch,
  event: HookEventName,
  body: string,
  options: HandlerRunOptions,
): Promise<HookRunRecord> {
  const ask = launch.mode === "prompt" ? options.handlers?.judge : options.handlers?.verify;
  if (ask === undefined) return missing(hook, event, launch.mode);
  const prompt = judgePrompt(launch.prompt, body);
  const clock = timed(hook, options.signal);
  const started = performance.now();
  try {
    const text = await ask({
      system: launch.mode === "prompt" ? JUDGE_SYSTEM_PROMPT : VERIFIER_SYSTEM_PROMPT,
      prompt,
      ...(launch.model === undefined ? {} : { model: launch.model }),
      signal: clock.signal,
      maxSteps: VERIFIER_MAX_STEPS,
    });
    return handlerRecord(hook, event, {
      sent: prompt,
      answer: text,
      durationMs: performance.now() - started,
      decision: judgedDecision(text, launch.mode),
    });
  } catch (error) {
    const failure = clock.failure(error);
    return handlerRecord(hook, event, {
      sent: prompt,
      answer: "",
      durationMs: performance.now() - started,
      ...failure,
    });
  }
}

async function runMcpTool(
  hook: HookDefinition,
  launch: McpToolLaunch,
  event: HookEventName,
  payload: unknown,
  options: HandlerRunOptions & { maxOutputBytes: number },
): Promise<HookRunRecord> {
  const call = options.handlers?.mcpTool;
  if (call === undefined) return missing(hook, event, "mcp_tool");
  const input = mcpToolInput(launch.input, payload);
  const sent = JSON.stringify(input);
  const clock = timed(hook, options.signal);
  const started = performance.now();
  const record = (answer: string, decision: Decision) =>
    handlerRecord(hook, event, { sent, answer, durationMs: performance.now() - started, decision });
  try {
    const answer = await call({ name: launch.command, input, signal: clock.signal });
    if (answer === undefined) {
      return record(
        "",
        failed(
          `no connected MCP server offers ${launch.command}: is "${launch.server}" configured (mcpServers in settings, or .mcp.json) with a tool "${launch.tool}"? \`acai mcp list\` shows what is connected`,
        ),
      );
    }
    if (!answer.ok)
      return record("", failed(`the MCP tool ${launch.command} failed: ${answer.error}`));
    if (Buffer.byteLength(answer.text) > options.maxOutputBytes) {
      return record("", failed(`the MCP tool ${launch.command} answered more than the output cap`));
    }
    return record(answer.text, answerOf(answer.text, event, hook, options.maxOutputBytes));
  } catch (error) {
    const failure = clock.failure(error);
    return handlerRecord(hook, event, {
      sent,
      answer: "",
      durationMs: performance.now() - started,
      ...failure,
    });
  }
}

/** A tool's text read as a command hook's stdout (a JSON answer, or plain text). */
function answerOf(
  text: string,
  event: HookEventName,
  hook: HookDefinition,
  maxOutputBytes: number,
): Decision {
  return decodeRunResult(
    {
      exitCode: 0,
      signal: null,
      stdout: text,
      stderr: "",
      timedOut: false,
      aborted: false,
      truncated: { stdout: false, stderr: false },
      durationMs: 0,
    },
    event,
    { timeoutMs: hook.timeoutMs, maxOutputBytes },
  );
}
