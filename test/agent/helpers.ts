import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createOpenAI } from "@ai-sdk/openai";
import { afterEach, beforeEach } from "vitest";
import { z } from "zod";
import { Agent } from "../../source/agent/agent.js";
import type { AgentEvent } from "../../source/agent/events.js";
import type { AgentOptions, RunInput } from "../../source/agent/types.js";
import type { Verdict } from "../../source/agent/verdicts.js";
import type { PermissionPolicy } from "../../source/permissions/decide.js";
import type { PermissionMode } from "../../source/permissions/rules.js";
import { NO_RULES } from "../../source/permissions/rules.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";
import type { ProcessRunner } from "../../source/process/types.js";
import { formatZodError } from "../../source/tools/define.js";
import type { Tool } from "../../source/tools/types.js";
import type { FakeOpenAIServer } from "../support/fake-openai-server.js";

export type Api = "chat" | "responses";

export interface AgentFixture {
  /** This test's own temp dir. */
  readonly dir: string;
  /** The fake model server a test started, closed after the test. */
  server: FakeOpenAIServer | undefined;
}

/** Gives each test of the calling file its own temp dir and closes its fake server afterwards. */
export function agentFixture(): AgentFixture {
  const fixture = { dir: "", server: undefined as FakeOpenAIServer | undefined };
  beforeEach(async () => {
    fixture.dir = await mkdtemp(path.join(os.tmpdir(), "acai-agent-"));
  });
  afterEach(async () => {
    await fixture.server?.close();
    fixture.server = undefined;
    await rm(fixture.dir, { recursive: true, force: true });
  });
  return fixture;
}

/** A runner for tests whose tools never spawn anything. */
export const unusedRunner: ProcessRunner = async () => {
  throw new Error("this test's tools do not run processes");
};

function zodTool<S extends z.ZodType>(
  name: string,
  schema: S,
  run: (input: z.infer<S>, signal: AbortSignal) => ReturnType<Tool["execute"]>,
): Tool {
  return {
    name,
    description: `${name} (test tool)`,
    inputSchema: z.toJSONSchema(schema) as Record<string, unknown>,
    validate(input) {
      const parsed = schema.safeParse(input);
      return parsed.success
        ? { ok: true, value: parsed.data }
        : { ok: false, error: formatZodError(name, parsed.error) };
    },
    execute: (input, context) => run(input as z.infer<S>, context.signal),
  };
}

export const echoTool = zodTool("Echo", z.object({ text: z.string() }), async ({ text }) => ({
  ok: true,
  output: `echo: ${text}`,
  response: { echoed: text },
}));

export const failTool = zodTool("Fail", z.object({}), async () => ({
  ok: false,
  error: "Fail went wrong on purpose",
  interrupted: false,
}));

const throwTool = zodTool("Throw", z.object({}), async () => {
  throw new Error("thrown inside the tool");
});

/** Waits `ms` unless aborted; reports an interruption on abort. */
export const slowTool = zodTool("Slow", z.object({ ms: z.number() }), (input, signal) => {
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => resolve({ ok: true, output: "slow done", response: {} }),
      input.ms,
    );
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve({ ok: false, error: "Slow was interrupted", interrupted: true });
      },
      { once: true },
    );
  });
});

const testTools = [echoTool, failTool, throwTool, slowTool];

export function modelFor(server: FakeOpenAIServer, api: Api) {
  const provider = createOpenAI({ apiKey: "sk-test", baseURL: server.url });
  return api === "chat" ? provider.chat("fake-model") : provider.responses("fake-model");
}

/**
 * A policy for tests: no rules, `mode` (default: `default`, where the test
 * tools — not Bash, Write, Edit — run without asking).
 */
export function testPolicy(dir: string, mode: PermissionMode = "default"): PermissionPolicy {
  return { mode, rules: NO_RULES, paths: { projectDir: dir, homeDir: dir }, cwd: dir, shell };
}

/**
 * The Bash grammar, loaded once for the test file (as a session loads it at its start), and as
 * acai's own commands load it (decision 0072): no TurboFan compile of it in a test worker.
 */
const shell = await loadShellAnalyzer({ baselineOnly: true });

export function makeAgent(
  server: FakeOpenAIServer,
  api: Api,
  dir: string,
  overrides: Partial<AgentOptions> = {},
): Agent {
  return new Agent({
    model: modelFor(server, api),
    modelId: "fake-model",
    tools: testTools,
    cwd: dir,
    env: {},
    runner: unusedRunner,
    permissions: testPolicy(dir),
    sessionId: "session-test",
    transcriptPath: path.join(dir, "home", "transcripts", "session-test.jsonl"),
    maxModelRetries: 0,
    ...overrides,
  });
}

export type Answer = (event: AgentEvent, events: readonly AgentEvent[]) => Verdict | undefined;

/** Drives `run()` to the end like the hook interceptor does, answering each event with `answer`. */
export async function drive(
  agent: Agent,
  input: RunInput,
  answer: Answer = () => undefined,
): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  const gen = agent.run(input);
  let verdict: Verdict | undefined;
  while (true) {
    const next = await gen.next(verdict);
    if (next.done) break;
    events.push(next.value);
    verdict = answer(next.value, events);
  }
  return events;
}

export function prompts(...texts: string[]): RunInput["prompts"] {
  return texts.map((prompt) => ({ prompt }));
}

export function types(events: readonly AgentEvent[]): string[] {
  return events.filter((e) => e.type !== "text_delta").map((e) => e.type);
}

export function ofType<T extends AgentEvent["type"]>(
  events: readonly AgentEvent[],
  type: T,
): Extract<AgentEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AgentEvent, { type: T }> => e.type === type);
}

/** All text the model received in a recorded request body, whichever API it used. */
export function requestText(body: Record<string, unknown> | undefined): string {
  return JSON.stringify(body ?? {});
}

/** The tool outputs (function results) sent in a recorded request, by call id. */
export function toolOutputs(body: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const messages = (body?.messages ?? []) as Array<Record<string, unknown>>;
  for (const m of messages) {
    if (m.role === "tool") out[String(m.tool_call_id)] = String(m.content);
  }
  const input = (Array.isArray(body?.input) ? body.input : []) as Array<Record<string, unknown>>;
  for (const item of input) {
    if (item.type === "function_call_output") out[String(item.call_id)] = String(item.output);
  }
  return out;
}

export async function readTranscript(file: string): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
