/** What the session says beside the conversation: warnings, errors, a compaction done. */
import { flushStream, push } from "./items.js";
import type { EventOf, ViewState } from "./view.js";

export function reduceWarning(state: ViewState, event: EventOf<"warning">): ViewState {
  return push(state, {
    kind: "warning",
    text: event.message,
    ...(event.source ? { source: event.source } : {}),
  });
}

export function reduceError(state: ViewState, event: EventOf<"error">): ViewState {
  return push(flushStream(state), { kind: "error", text: event.message });
}

export function reduceCompactEnd(state: ViewState, event: EventOf<"compact_end">): ViewState {
  return push(flushStream(state), { kind: "notice", lines: [compactedLine(event)] });
}

/** "Compacted the conversation: ~12,400 → ~2,100 tokens (40 → 5 messages)." */
function compactedLine(event: {
  trigger: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
}): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return `Compacted the conversation (${event.trigger}): ~${n(event.tokensBefore)} → ~${n(event.tokensAfter)} tokens (${event.messagesBefore} → ${event.messagesAfter} messages).`;
}
