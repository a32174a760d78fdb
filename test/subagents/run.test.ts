/**
 * The Task tool through `Agent.run()` (the consumer answers like the hook
 * interceptor): a nested run's events come up marked, its lifecycle gates'
 * verdicts reach it, its tools follow its type and the depth limit, and an
 * abort reaches its running tool.
 */
import path from "node:path";
import { describe, expect, test } from "vitest";
import { Agent, MissingPermissionPolicyError } from "../../source/agent/agent.js";
import type { AgentEvent } from "../../source/agent/events.js";
import type { AgentOptions } from "../../source/agent/types.js";
import type { PermissionPolicy } from "../../source/permissions/decide.js";
import { NO_RULES, type PermissionRule } from "../../source/permissions/rules.js";
import { type SubagentRunnerOptions, subagentTaskTool } from "../../source/subagents/run.js";
import { GENERAL_PURPOSE, type SubagentDefinition } from "../../source/tools/builtin/task-types.js";
import {
  agentFixture,
  drive,
  echoTool,
  makeAgent,
  modelFor,
  prompts,
  slowTool,
  testPolicy,
  unusedRunner,
} from "../agent/helpers.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  scriptBySystemPrompt,
  startFakeOpenAI,
  systemPromptOf,
} from "../support/fake-openai-server.js";

const fx = agentFixture();
const SUB = "You are a subagent";

const task = (subagent_type = "general-purpose"): FakeTurn => ({
  toolCalls: [{ name: "Task", input: { description: "d", prompt: "P", subagent_type }, id: "t1" }],
});

async function setup(
  sub: FakeTurn[],
  parent: FakeTurn[],
  definitions: SubagentDefinition[] = [GENERAL_PURPOSE],
  maxDepth?: number,
  permissions: PermissionPolicy = testPolicy(fx.dir),
) {
  const server = await startFakeOpenAI(scriptBySystemPrompt([{ system: SUB, turns: sub }], parent));
  fx.server = server;
  const taskTool = subagentTaskTool({
    definitions,
    model: modelFor(server, "chat"),
    modelId: "fake-model",
    tools: [echoTool, slowTool],
    cwd: fx.dir,
    env: {},
    runner: unusedRunner,
    permissions,
    sessionId: "session-test",
    transcriptPath: path.join(fx.dir, "t", "session-test.jsonl"),
    ...(maxDepth === undefined ? {} : { maxDepth }),
  });
  return { server, agent: makeAgent(server, "chat", fx.dir, { tools: [echoTool, taskTool] }) };
}

const subRequests = (s: FakeOpenAIServer) =>
  s.requests.filter((r) => systemPromptOf(r).includes(SUB));
const toolNames = (body: Record<string, unknown> | undefined) =>
  ((body?.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
const taskResult = (events: AgentEvent[]) =>
  events.find(
    (e) =>
      (e.type === "tool_call_end" || e.type === "tool_call_error") &&
      e.toolName === "Task" &&
      e.agentId === undefined,
  );

describe("the Task tool", () => {
  test("relays the subagent's events marked; its gates' verdicts reach it; its answer is the result", async () => {
    const { server, agent } = await setup(
      [
        { toolCalls: [{ name: "Echo", input: { text: "hi" } }] },
        { text: "FIRST" },
        { text: "SECOND" },
      ],
      [task(), { text: "done" }],
    );
    const events = await drive(agent, { prompts: prompts("go") }, (event) => {
      if (event.type === "subagent_start") return { action: "continue", context: ["CTX-FOR-SUB"] };
      if (event.type === "subagent_stop" && !event.stopHookActive)
        return { action: "block", reason: "MORE" };
      return undefined;
    });
    const marked = events.filter((e) => e.agentId !== undefined);
    expect(marked.map((e) => e.type).filter((t) => t !== "text_delta")).toEqual([
      "subagent_start",
      "step_start",
      "model_request",
      "model_response",
      "tool_call_start",
      "tool_call_end",
      "tool_batch_end",
      "step_end",
      "step_start",
      "model_request",
      "model_response",
      "output",
      "step_end",
      "subagent_stop",
      "step_start",
      "model_request",
      "model_response",
      "output",
      "step_end",
      "subagent_stop",
      "subagent_end",
    ]);
    expect(new Set(marked.map((e) => e.agentType))).toEqual(new Set(["general-purpose"]));
    // The session's own lifecycle events are unmarked and not repeated by the subagent.
    expect(
      events.filter((e) => e.type === "session_start" || e.type === "stop_request"),
    ).toHaveLength(2);
    expect(subRequests(server)[0]?.rawBody).toContain("CTX-FOR-SUB");
    expect(subRequests(server)[2]?.rawBody).toContain("MORE");
    expect(taskResult(events)).toMatchObject({ type: "tool_call_end", output: "SECOND" });
  });

  test("a subagent_start block fails the call with the reason; an unknown type names the known ones", async () => {
    const { server, agent } = await setup([], [task(), task("nope"), { text: "done" }]);
    const events = await drive(agent, { prompts: prompts("go") }, (event) =>
      event.type === "subagent_start" ? { action: "block", reason: "NOT-NOW" } : undefined,
    );
    const failures = events.filter((e) => e.type === "tool_call_error" && e.toolName === "Task");
    expect(failures.map((e) => e.type === "tool_call_error" && e.error)).toEqual([
      "A subagent_start hook blocked the subagent: NOT-NOW",
      'There is no subagent type "nope". Available: general-purpose.',
    ]);
    expect(subRequests(server)).toHaveLength(0);
  });

  test("tools follow the type; Task is offered only above the depth limit", async () => {
    const reviewer: SubagentDefinition = {
      name: "reviewer",
      description: "r",
      tools: ["Echo", "Task"],
      prompt: `${SUB} reviewer`,
      scope: "user",
    };
    const deep = await setup(
      [{ text: "a" }, { text: "b" }],
      [task(), task("reviewer"), { text: "done" }],
      [GENERAL_PURPOSE, reviewer],
      2,
    );
    await drive(deep.agent, { prompts: prompts("go") });
    const [general, review] = subRequests(deep.server);
    expect(toolNames(general?.body)).toEqual(["Echo", "Slow", "Task"]);
    expect(toolNames(review?.body)).toEqual(["Echo", "Task"]);
    await deep.server.close();
    const flat = await setup([{ text: "a" }], [task(), { text: "done" }], [GENERAL_PURPOSE], 1);
    await drive(flat.agent, { prompts: prompts("go") });
    expect(toolNames(subRequests(flat.server)[0]?.body)).toEqual(["Echo", "Slow"]);
  });

  test("an abort reaches the subagent's running tool; the call ends interrupted", async () => {
    const { agent } = await setup(
      [{ toolCalls: [{ name: "Slow", input: { ms: 60_000 } }] }],
      [task(), { text: "unreachable" }],
    );
    const abort = new AbortController();
    const events = await drive(agent, { prompts: prompts("go"), signal: abort.signal }, (event) => {
      if (event.type === "tool_call_start" && event.toolName === "Slow")
        setTimeout(() => abort.abort(), 0);
      return undefined;
    });
    const slow = events.find((e) => e.type === "tool_call_error" && e.toolName === "Slow");
    expect(slow).toMatchObject({ interrupted: true, agentType: "general-purpose" });
    expect(events.find((e) => e.type === "subagent_end")).toMatchObject({ stopReason: "aborted" });
    expect(taskResult(events)).toMatchObject({ type: "tool_call_error", interrupted: true });
    expect(events.at(-1)).toMatchObject({ type: "session_end", reason: "aborted" });
  });
});

describe("a subagent runs under the session's permission policy", () => {
  const rule = (list: "deny" | "ask"): PermissionRule => ({
    text: "Echo",
    tool: "Echo",
    list,
    source: { scope: "flag", label: "--disallowedTools" },
  });
  const withRule = (list: "deny" | "ask"): PermissionPolicy => ({
    ...testPolicy(fx.dir),
    rules: { ...NO_RULES, [list]: [rule(list)] },
  });
  const toolNameOf = (e: AgentEvent) => ("toolName" in e ? e.toolName : undefined);
  const echoCall: FakeTurn = { toolCalls: [{ name: "Echo", input: { text: "from-sub" } }] };

  test("the session's deny rule denies the subagent's call: it does not run", async () => {
    const { agent } = await setup(
      [echoCall, { text: "sub done" }],
      [task(), { text: "done" }],
      [GENERAL_PURPOSE],
      undefined,
      withRule("deny"),
    );
    const events = await drive(agent, { prompts: prompts("go") });
    const subCalls = events.filter((e) => e.agentId !== undefined && toolNameOf(e) === "Echo");
    expect(subCalls.map((e) => e.type)).toEqual([
      "tool_call_start",
      "permission_denied",
      "tool_call_error",
    ]);
    expect(subCalls[2]).toMatchObject({ denied: true });
  });

  test("the session's ask rule asks the session's consumer, marked with the subagent", async () => {
    const { agent } = await setup(
      [echoCall, echoCall, { text: "sub done" }],
      [task(), { text: "done" }],
      [GENERAL_PURPOSE],
      undefined,
      withRule("ask"),
    );
    let asked = 0;
    const events = await drive(agent, { prompts: prompts("go") }, (event) => {
      if (event.type !== "permission_request") return undefined;
      asked++;
      // The first question is answered yes, the second gets no answer (a headless run).
      return asked === 1 ? { action: "allow" } : undefined;
    });
    const requests = events.filter((e) => e.type === "permission_request");
    expect(requests).toHaveLength(2);
    expect(requests.every((e) => e.agentType === "general-purpose")).toBe(true);
    const ends = events.filter(
      (e) => e.agentId !== undefined && toolNameOf(e) === "Echo" && e.type.startsWith("tool_call_"),
    );
    expect(ends.map((e) => e.type)).toEqual([
      "tool_call_start",
      "tool_call_end",
      "tool_call_start",
      "tool_call_error",
    ]);
  });

  test("no agent, nested or not, can be built without a policy", async () => {
    const server = await startFakeOpenAI([]);
    fx.server = server;
    const options = {
      model: modelFor(server, "chat"),
      modelId: "fake-model",
      tools: [echoTool],
      cwd: fx.dir,
      env: {},
      runner: unusedRunner,
      sessionId: "s",
      transcriptPath: path.join(fx.dir, "t.jsonl"),
    };
    // @ts-expect-error -- permissions is required: leaving it out is a type error.
    const untyped: AgentOptions = options;
    expect(() => new Agent(untyped)).toThrow(MissingPermissionPolicyError);
    // @ts-expect-error -- the subagent runner requires the session's policy too.
    const runner: SubagentRunnerOptions = { ...options, definitions: [GENERAL_PURPOSE] };
    const nested = subagentTaskTool(runner);
    const agent = makeAgent(server, "chat", fx.dir, { tools: [nested] });
    expect(agent).toBeInstanceOf(Agent);
    // The nested agent is built per Task call: without a policy it refuses there, and nothing runs.
    const stream = nested.stream?.(
      { description: "d", prompt: "p", subagent_type: "general-purpose" },
      { cwd: fx.dir, env: {}, runner: unusedRunner, signal: new AbortController().signal },
    );
    await expect(stream?.next()).rejects.toThrow(MissingPermissionPolicyError);
  });
});
