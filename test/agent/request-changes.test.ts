/**
 * agent/request-changes.ts (before_model / after_model changes around one
 * request, pure) and history-repair.ts's deferredCalls (what a deferred run
 * stopped at): every branch, with real values.
 */
import type { ModelMessage, ToolSet } from "ai";
import { describe, expect, it } from "vitest";
import { deferredCalls } from "../../source/agent/history-repair.js";
import {
  changedAnswer,
  offeredNames,
  refuseUnoffered,
  requestOf,
  syntheticAnswer,
} from "../../source/agent/request-changes.js";

const tools = { Bash: {}, Read: {}, Edit: {} } as unknown as ToolSet;
const history: ModelMessage[] = [{ role: "user", content: "hello" }];
const session = { system: "be brief", history: { messages: history }, modelTools: tools };

describe("requestOf", () => {
  it("without changes: the session's system prompt, a copy of its messages, every tool", () => {
    const request = requestOf(session, undefined);
    expect(request).toEqual({ system: "be brief", messages: history, tools });
    expect(request.messages).not.toBe(history);
  });

  it("a hook's messages, system prompt, sampling, tool mode and kept tools replace the session's for this request", () => {
    const request = requestOf(session, {
      messages: [{ role: "user", content: "rewritten" }],
      system: "be thorough",
      params: { temperature: 0 },
      tools: ["Read", "Nope"],
      toolMode: "required",
    });
    expect(request.system).toBe("be thorough");
    expect(request.messages).toEqual([{ role: "user", content: "rewritten" }]);
    expect(Object.keys(request.tools)).toEqual(["Read"]);
    expect(request.toolChoice).toBe("required");
    expect(request.params).toEqual({ temperature: 0 });
    // The conversation itself is untouched.
    expect(history).toEqual([{ role: "user", content: "hello" }]);
  });

  it('tool mode "none" offers no tool at all, whatever the list', () => {
    expect(requestOf(session, { toolMode: "none", tools: ["Bash"] }).tools).toEqual({});
  });
});

describe("offeredNames and refuseUnoffered", () => {
  it("undefined means every tool; a list keeps the known names in the session's order", () => {
    expect(offeredNames(["Bash", "Read"], undefined)).toBeUndefined();
    expect(offeredNames(["Bash", "Read"], { toolMode: "auto" })).toBeUndefined();
    expect(offeredNames(["Bash", "Read", "Edit"], { tools: ["Edit", "Bash", "X"] })).toEqual([
      "Bash",
      "Edit",
    ]);
    expect(offeredNames(["Bash"], { toolMode: "none" })).toEqual([]);
  });

  it("a call to a tool not offered is marked invalid with the reason; others pass as they are", () => {
    const calls = [
      { toolCallId: "1", toolName: "Bash", input: {} },
      { toolCallId: "2", toolName: "Read", input: {} },
    ];
    expect(refuseUnoffered(calls, undefined)).toEqual(calls);
    const [bash, read] = refuseUnoffered(calls, ["Read"]);
    expect(bash?.invalidReason).toContain('The tool "Bash" was not offered for this request');
    expect(read).toEqual(calls[1]);
  });
});

describe("syntheticAnswer and changedAnswer", () => {
  const answer = {
    kind: "ok" as const,
    text: "old",
    toolCalls: [
      { toolCallId: "a", toolName: "Bash", input: { command: "rm -rf x" } },
      { toolCallId: "b", toolName: "Read", input: { file_path: "y" } },
    ],
    usage: { inputTokens: 1, outputTokens: 2, totalTokens: 3 },
    finishReason: "tool-calls",
    responseMessages: [
      {
        role: "assistant",
        content: [
          { type: "text", text: "old" },
          { type: "tool-call", toolCallId: "a", toolName: "Bash", input: { command: "rm -rf x" } },
          { type: "tool-call", toolCallId: "b", toolName: "Read", input: { file_path: "y" } },
        ],
      },
    ],
  } as unknown as Parameters<typeof changedAnswer>[0];

  it("an answer in place of the model is text only, with no usage and no calls", () => {
    const synthetic = syntheticAnswer("cached reply");
    expect(synthetic.text).toBe("cached reply");
    expect(synthetic.toolCalls).toEqual([]);
    expect(synthetic.usage.totalTokens).toBe(0);
    expect(synthetic.responseMessages).toEqual([
      { role: "assistant", content: [{ type: "text", text: "cached reply" }] },
    ]);
  });

  it("no change gives the same answer back", () => {
    expect(changedAnswer(answer, {})).toBe(answer);
    expect(changedAnswer(answer, { dropToolCalls: [] })).toBe(answer);
  });

  it("drops the named calls from the calls and the message, and replaces the text", () => {
    const changed = changedAnswer(answer, { text: "new", dropToolCalls: ["a"] });
    expect(changed.text).toBe("new");
    expect(changed.toolCalls.map((c) => c.toolCallId)).toEqual(["b"]);
    expect(changed.responseMessages[0]?.content).toEqual([
      { type: "text", text: "new" },
      { type: "tool-call", toolCallId: "b", toolName: "Read", input: { file_path: "y" } },
    ]);
  });

  it("an emptied assistant message keeps an empty text part for the provider; a string content is replaced", () => {
    const onlyCall = {
      ...answer,
      responseMessages: [
        {
          role: "assistant",
          content: [{ type: "tool-call", toolCallId: "a", toolName: "Bash", input: {} }],
        },
        { role: "tool", content: [] },
      ],
    } as unknown as Parameters<typeof changedAnswer>[0];
    const emptied = changedAnswer(onlyCall, { text: "", dropToolCalls: ["a"] });
    expect(emptied.responseMessages[0]?.content).toEqual([{ type: "text", text: "" }]);
    expect(emptied.responseMessages[1]).toEqual({ role: "tool", content: [] });
    const plain = {
      ...answer,
      responseMessages: [{ role: "assistant", content: "old" }],
    } as unknown as Parameters<typeof changedAnswer>[0];
    expect(changedAnswer(plain, { text: "new" }).responseMessages[0]?.content).toBe("new");
    expect(changedAnswer(plain, { dropToolCalls: ["a"] }).responseMessages[0]?.content).toBe("old");
  });
});

describe("deferredCalls", () => {
  const asked: ModelMessage = {
    role: "assistant",
    content: [
      { type: "tool-call", toolCallId: "c1", toolName: "Bash", input: { command: "ls" } },
      { type: "tool-call", toolCallId: "c2", toolName: "Bash", input: { command: "git push" } },
    ],
  };
  const result = (id: string): ModelMessage => ({
    role: "tool",
    content: [
      {
        type: "tool-result",
        toolCallId: id,
        toolName: "Bash",
        output: { type: "text", value: "ok" },
      },
    ],
  });

  it("the last message's calls without a result, when one of them was deferred", () => {
    expect(deferredCalls([{ role: "user", content: "go" }, asked], new Set(["c2"]))).toEqual([
      { toolCallId: "c1", toolName: "Bash", input: { command: "ls" } },
      { toolCallId: "c2", toolName: "Bash", input: { command: "git push" } },
    ]);
    expect(deferredCalls([asked, result("c1")], new Set(["c2"]))).toEqual([
      { toolCallId: "c2", toolName: "Bash", input: { command: "git push" } },
    ]);
  });

  it("nothing when no id is deferred, the deferred call has its result, or text follows", () => {
    expect(deferredCalls([asked], new Set())).toEqual([]);
    expect(deferredCalls([asked, result("c2")], new Set(["c2"]))).toEqual([]);
    expect(deferredCalls([asked, { role: "user", content: "later" }], new Set(["c2"]))).toEqual([]);
    expect(deferredCalls([], new Set(["c2"]))).toEqual([]);
  });

  it("calls the provider ran itself are not pending", () => {
    const provider: ModelMessage = {
      role: "assistant",
      content: [
        { type: "tool-call", toolCallId: "w", toolName: "web", input: {}, providerExecuted: true },
      ],
    };
    expect(deferredCalls([provider], new Set(["w"]))).toEqual([]);
  });
});
