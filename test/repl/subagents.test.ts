import { describe, expect, it } from "vitest";
import type { InterceptedEvent } from "../../source/hooks/run/activity.js";
import { initialViewState, reduce, type ViewState } from "../../source/repl/state.js";
import { MAX_SUBAGENT_LINES, subagentDetail } from "../../source/repl/subagents.js";

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2 };
const mark = { agentId: "a1", agentType: "reviewer" };

function run(events: InterceptedEvent[], state: ViewState = initialViewState()): ViewState {
  let at = 1000;
  for (const event of events) {
    at += 10;
    state = reduce(state, { type: "event", event, at });
  }
  return state;
}

const taskStart: InterceptedEvent = {
  type: "tool_call_start",
  turn: 1,
  step: 1,
  toolCallId: "task1",
  toolName: "Task",
  input: { description: "review", prompt: "review it" },
};
const subStart: InterceptedEvent = {
  type: "subagent_start",
  ...mark,
  description: "review",
  prompt: "review it",
  toolCallId: "task1",
  depth: 1,
};
const subTool: InterceptedEvent[] = [
  {
    type: "tool_call_start",
    ...mark,
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Read",
    input: { file_path: "/p/a.ts" },
  },
  {
    type: "tool_call_end",
    ...mark,
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Read",
    input: { file_path: "/p/a.ts" },
    output: "x",
    response: {},
    durationMs: 1,
  },
];
const subEnd: InterceptedEvent = {
  type: "subagent_end",
  ...mark,
  toolCallId: "task1",
  stopReason: "end_turn",
  text: "LGTM",
  usage,
};
const taskEnd: InterceptedEvent = {
  type: "tool_call_end",
  turn: 1,
  step: 1,
  toolCallId: "task1",
  toolName: "Task",
  input: { description: "review", prompt: "review it" },
  output: "LGTM",
  response: {},
  durationMs: 30,
};

describe("subagents in the REPL view", () => {
  it("a running subagent is live and nested: its tool calls are not top-level blocks", () => {
    const s = run([taskStart, subStart, ...subTool]);
    expect(s.tools.map((t) => t.toolName)).toEqual(["Task"]);
    expect(s.subagents).toHaveLength(1);
    expect(s.subagents[0]?.lines).toEqual([{ kind: "tool", text: "Read /p/a.ts" }]);
    expect(s.items).toEqual([]);
  });

  it("once done it goes below its Task block, collapsed, with an /expand number", () => {
    const s = run([
      taskStart,
      subStart,
      ...subTool,
      { type: "text_delta", ...mark, turn: 1, step: 2, text: "LGTM" },
      subEnd,
      taskEnd,
    ]);
    expect(s.items.map((i) => i.kind)).toEqual(["tool", "subagent"]);
    const item = s.items[1];
    expect(item?.kind === "subagent" && item.view).toMatchObject({
      seq: 2,
      stopReason: "end_turn",
      toolCalls: 1,
    });
    expect(s.subagents).toEqual([]);
    // The session's own turn and totals are untouched by the subagent's events.
    expect(s.turn?.usage.totalTokens ?? 0).toBe(0);
    if (item?.kind === "subagent") expect(subagentDetail(item.view)).toBe("✓ Read /p/a.ts\nLGTM");
  });

  it("keeps at most MAX_SUBAGENT_LINES lines and says how many went", () => {
    const many: InterceptedEvent[] = [];
    for (let i = 0; i < MAX_SUBAGENT_LINES + 5; i++) {
      many.push({ type: "warning", ...mark, message: `w${i}` });
    }
    const s = run([taskStart, subStart, ...many]);
    expect(s.subagents[0]?.lines).toHaveLength(MAX_SUBAGENT_LINES);
    expect(s.subagents[0]?.dropped).toBe(5);
  });
});
