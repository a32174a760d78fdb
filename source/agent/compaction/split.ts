import type { ModelMessage } from "ai";

/** Rough tokens of some messages (4 characters a token): for the split and the estimate after. */
export function estimateTokens(messages: readonly ModelMessage[]): number {
  let chars = 0;
  for (const message of messages) chars += JSON.stringify(message.content).length;
  return Math.ceil(chars / 4);
}

export interface CompactionSplit {
  /** Summarised. */
  older: ModelMessage[];
  /** Kept as they are, after the summary. */
  recent: ModelMessage[];
}

/**
 * Where to cut: the most recent messages that fit in `keepShare` of the
 * conversation are kept, starting at a message that is not a tool result (a
 * result never goes without the call it answers). Nothing to summarise →
 * `older` is empty.
 */
export function splitForCompaction(
  messages: readonly ModelMessage[],
  keepShare: number,
): CompactionSplit {
  const sizes = messages.map((m) => JSON.stringify(m.content).length);
  const total = sizes.reduce((a, b) => a + b, 0);
  const budget = total * keepShare;
  let cut = messages.length;
  let kept = 0;
  for (let i = messages.length - 1; i >= 1; i--) {
    kept += sizes[i] ?? 0;
    if (kept > budget) break;
    if (messages[i]?.role !== "tool") cut = i;
  }
  return { older: messages.slice(0, cut), recent: messages.slice(cut) };
}
