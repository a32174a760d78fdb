import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";
import type { AgentEvent } from "../../../../source/agent/events.js";
import type { Verdict } from "../../../../source/agent/verdicts.js";
import type { HookDefinition } from "../../../../source/hooks/contract/definition.js";
import type { InterceptedEvent } from "../../../../source/hooks/run/activity.js";
import type { AuditEntry, AuditSink, ConsideredLine } from "../../../../source/hooks/run/audit.js";
import type { InterceptorOptions } from "../../../../source/hooks/run/interceptor.js";
import { runner, scriptHook, type TempDir, tempDir, writeScript } from "../../support.js";

/** Gives each test of the calling file its own temp dir, removed after the test. */
export function tempDirPerTest(prefix: string): { readonly path: string } {
  let dir: TempDir | undefined;
  beforeEach(async () => {
    dir = await tempDir(prefix);
  });
  afterEach(async () => {
    await dir?.cleanup();
    dir = undefined;
  });
  return {
    get path() {
      if (dir === undefined) throw new Error("tempDirPerTest: no test is running");
      return dir.path;
    },
  };
}

/** Interceptor options rooted in `dir` (project dir, ACAI_HOME, $OUT), audited in memory. */
export function interceptorOptions(
  dir: string,
  extra: Partial<InterceptorOptions> = {},
): InterceptorOptions {
  return {
    hooks: [],
    runner,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", OUT: dir },
    projectDir: dir,
    acaiHome: join(dir, "home"),
    audit: memoryAudit(),
    ...extra,
  };
}

export interface FakeAgent {
  run: AsyncGenerator<AgentEvent, void, Verdict | undefined>;
  /** The verdict received after each yielded event, in order. */
  verdicts: { type: AgentEvent["type"]; verdict: Verdict | undefined }[];
  /** Set when the generator's finally block ran (completion or return()). */
  closed: { value: boolean };
}

/**
 * A stand-in for Agent.run(): yields the given events in order (a function
 * entry is awaited between events) and records the verdicts it is resumed with.
 */
export function fakeAgent(script: (AgentEvent | (() => Promise<void>))[]): FakeAgent {
  const verdicts: FakeAgent["verdicts"] = [];
  const closed = { value: false };
  async function* run(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    try {
      for (const item of script) {
        if (typeof item === "function") {
          await item();
          continue;
        }
        const verdict = yield item;
        verdicts.push({ type: item.type, verdict });
      }
    } finally {
      closed.value = true;
    }
  }
  return { run: run(), verdicts, closed };
}

export async function collect(gen: AsyncGenerator<InterceptedEvent, void, undefined>) {
  const events: InterceptedEvent[] = [];
  for await (const event of gen) events.push(event);
  return events;
}

/** An audit sink in memory: run lines in `entries`, the `considered` lines apart. */
export function memoryAudit(): AuditSink & { entries: AuditEntry[]; considered: ConsideredLine[] } {
  const entries: AuditEntry[] = [];
  const considered: ConsideredLine[] = [];
  return {
    entries,
    considered,
    write: (entry) => {
      if ("kind" in entry) considered.push(entry);
      else entries.push(entry);
    },
  };
}

/** A hook that ignores stdin and prints `answer` (JSON) on stdout. */
export async function answerHook(
  dir: string,
  name: string,
  answer: unknown,
  overrides: Partial<HookDefinition> = {},
): Promise<HookDefinition> {
  const body = `cat >/dev/null\necho '${JSON.stringify(answer).replaceAll("'", "'\\''")}'`;
  const path = await writeScript(dir, name, body);
  return scriptHook(path, { name, id: `user:executable:${path}`, ...overrides });
}

export async function bashHook(
  dir: string,
  name: string,
  body: string,
  overrides: Partial<HookDefinition> = {},
): Promise<HookDefinition> {
  const path = await writeScript(dir, name, body);
  return scriptHook(path, { name, id: `user:executable:${path}`, ...overrides });
}

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };

export const ev = {
  sessionStart: (): AgentEvent => ({
    type: "session_start",
    sessionId: "sess-1",
    model: "m",
    cwd: "/proj",
    transcriptPath: "/t/sess-1.jsonl",
    source: "startup",
  }),
  prompt: (prompt = "hello"): AgentEvent => ({ type: "user_prompt", turn: 1, prompt }),
  request: (step = 1): AgentEvent => ({ type: "model_request", turn: 1, step, model: "m" }),
  delta: (): AgentEvent => ({ type: "text_delta", turn: 1, step: 1, text: "hi" }),
  response: (): AgentEvent => ({
    type: "model_response",
    turn: 1,
    step: 1,
    model: "m",
    text: "",
    toolCalls: [{ toolCallId: "c1", toolName: "Bash", input: { command: "ls" } }],
    usage,
    finishReason: "tool-calls",
    durationMs: 3,
  }),
  toolStart: (input: unknown = { command: "ls" }): AgentEvent => ({
    type: "tool_call_start",
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Bash",
    input,
  }),
  permission: (input: unknown = { command: "ls" }): AgentEvent => ({
    type: "permission_request",
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Bash",
    input,
    reason: "no rule allows Bash in default mode",
    permissionMode: "default",
    suggestion: "Bash(ls:*)",
  }),
  toolEnd: (): AgentEvent => ({
    type: "tool_call_end",
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Bash",
    input: { command: "ls" },
    output: "a.txt",
    response: { stdout: "a.txt", stderr: "", exit_code: 0, interrupted: false },
    durationMs: 2,
  }),
  toolError: (): Extract<AgentEvent, { type: "tool_call_error" }> => ({
    type: "tool_call_error",
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Bash",
    input: { command: "ls" },
    error: "boom",
    interrupted: false,
    blocked: false,
    durationMs: 2,
  }),
  stop: (): AgentEvent => ({
    type: "stop_request",
    turn: 1,
    step: 2,
    lastAssistantMessage: "done",
    stopHookActive: false,
    consecutiveBlocks: 0,
  }),
  turnEnd: (): AgentEvent => ({
    type: "turn_end",
    turn: 1,
    stopReason: "end_turn",
    text: "done",
    usage,
  }),
  subagentStart: (): AgentEvent => ({
    type: "subagent_start",
    agentId: "agent-1",
    agentType: "general-purpose",
    description: "look around",
    prompt: "list the files",
    toolCallId: "c2",
    depth: 1,
  }),
  subagentStop: (): AgentEvent => ({
    type: "subagent_stop",
    agentId: "agent-1",
    agentType: "general-purpose",
    turn: 1,
    step: 1,
    lastAssistantMessage: "two files",
    stopHookActive: false,
    consecutiveBlocks: 0,
    agentTranscriptPath: "/t/sess-1/subagents/agent-agent-1.jsonl",
  }),
  notification: (): AgentEvent => ({
    type: "notification",
    message: "waiting",
    notificationType: "idle",
  }),
  sessionEnd: (): AgentEvent => ({ type: "session_end", reason: "completed" }),
  output: (text = "Done.\n@deploy:staging v1"): AgentEvent => ({
    type: "output",
    turn: 1,
    step: 1,
    text,
  }),
  pattern: (namespace = "deploy", target = "staging", message = "v1"): AgentEvent => ({
    type: "pattern",
    turn: 1,
    step: 1,
    namespace,
    target,
    message,
    line: 2,
  }),
  idle: (idleSeconds = 30): AgentEvent => ({ type: "idle", idleSeconds }),
  compactStart: (): AgentEvent => ({
    type: "compact_start",
    trigger: "manual",
    customInstructions: "keep the plan",
    tokensBefore: 80_000,
    messages: 40,
  }),
  compactEnd: (): AgentEvent => ({
    type: "compact_end",
    trigger: "manual",
    summary: "We planned the work.",
    tokensBefore: 80_000,
    tokensAfter: 20_000,
    messagesBefore: 40,
    messagesAfter: 5,
    usage: { inputTokens: 80_000, outputTokens: 500, totalTokens: 80_500 },
    durationMs: 12,
  }),
};
