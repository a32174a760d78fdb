/**
 * A checklist gate (the event row's `blocks: "all"`: before_stop,
 * subagent_stop): every hook of its chain runs, and the block carries every
 * reason, in chain order. Also the end of a chain cut by the abort, which a
 * checklist passes on as it is.
 */
import type { HookDefinition } from "../contract/definition.js";
import type { ChainEnd } from "./step.js";

/** How a chain cut by the abort ends: a tool whose check did not finish does not run. */
export const ABORTED: ChainEnd = { kind: "block", reason: "aborted" };

/** A checklist gate's blocks, gathered in chain order while the other hooks still run. */
export class BlockList {
  private readonly blocks: { hook: string; reason: string }[] = [];
  /** One of the blocks asked for a cleared conversation (Gemini's AfterAgent `clearContext`). */
  private clearContext = false;

  /** Keeps a block (true: the chain goes on); anything else is for the chain to handle. */
  takes(hook: HookDefinition, end: ChainEnd | undefined): boolean {
    if (end?.kind !== "block" || end === ABORTED) return false;
    this.blocks.push({ hook: hook.name, reason: end.reason });
    if (end.clearContext === true) this.clearContext = true;
    return true;
  }

  /** How the chain ends: a `stop` or an abort as they are, else one block with every reason. */
  over(end: ChainEnd): ChainEnd {
    if (this.blocks.length === 0 || end.kind === "stop" || end === ABORTED) return end;
    const clear = this.clearContext ? { clearContext: true as const } : {};
    if (this.blocks.length === 1)
      return { kind: "block", reason: (this.blocks[0] as { reason: string }).reason, ...clear };
    const lines = this.blocks.map((block, i) => `${i + 1}. ${block.hook}: ${block.reason}`);
    return {
      kind: "block",
      reason: `${this.blocks.length} hooks asked to go on:\n${lines.join("\n")}`,
      ...clear,
    };
  }
}
