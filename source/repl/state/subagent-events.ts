import { reduceSubagents } from "../subagents.js";
import { push } from "./items.js";
import type { ViewState } from "./view.js";

/**
 * A subagent's event (not its hook activity): its nested view (../subagents.ts);
 * one that ended gets its `/expand` number and waits for its Task call to end.
 */
export function reduceSubagentEvent(
  state: ViewState,
  event: Parameters<typeof reduceSubagents>[1],
  at: number,
): ViewState {
  const running = state.subagents.filter((v) => v.stopReason === undefined);
  const waiting = state.subagents.filter((v) => v.stopReason !== undefined);
  const { views, ended } = reduceSubagents(running, event, at);
  if (ended === undefined) return { ...state, subagents: [...waiting, ...views] };
  const seq = state.toolSeq + 1;
  const done = { ...ended, seq };
  // A nested subagent's Task call is its parent's line, never a block: it goes out at once.
  if (done.depth > 1)
    return push(
      { ...state, toolSeq: seq, subagents: [...waiting, ...views] },
      { kind: "subagent", view: done },
    );
  return { ...state, toolSeq: seq, subagents: [...waiting, ...views, done] };
}
