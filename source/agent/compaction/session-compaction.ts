/**
 * Compaction as a session runs it: when (near the context window), and what
 * becomes of one (`compactHistory`): the new measure of the conversation, or
 * a warning saying why nothing changed.
 */

import type { AgentEvent } from "../events.js";
import { RAISES } from "../raises.js";
import type { SessionContext } from "../session-context.js";
import { providerOf } from "../session-totals.js";
import type { Verdict } from "../verdicts.js";
import { type CompactTrigger, compactHistory } from "./compact.js";
import { DEFAULT_COMPACT_AT } from "./context-window.js";

/** Whether the last request used `compactAt` of the context window (unknown window: never). */
export function nearContextWindow(session: SessionContext): boolean {
  const window = session.options.contextWindow;
  if (window === undefined || session.measuredTokens === undefined) return false;
  return session.measuredTokens >= window * (session.options.compactAt ?? DEFAULT_COMPACT_AT);
}

/** Compacts the conversation (compact.ts); true when it did. Problems are warnings. */
export async function* compactSession(
  session: SessionContext,
  trigger: CompactTrigger,
  instructions: string,
  signal: AbortSignal,
): AsyncGenerator<AgentEvent, boolean, Verdict | undefined> {
  const { options } = session;
  const result = yield* compactHistory(
    {
      emit: (event) => session.emit(event),
      history: session.history,
      boundary: (t, tokens) => session.transcript.compactBoundary(t, tokens),
      model: options.model,
      modelTools: session.modelTools,
      signal,
      now: session.now,
      measuredTokens: session.measuredTokens,
      maxModelRetries: session.limits.maxModelRetries,
      session: {
        sessionId: options.sessionId,
        model: options.modelId,
        modelProvider: providerOf(options.model),
        cwd: options.cwd,
        transcriptPath: options.transcriptPath,
      },
    },
    trigger,
    instructions,
  );
  const warn = (message: string) =>
    session.emit({ type: "warning", message, source: "compaction" });
  switch (result.kind) {
    case "compacted":
      session.measuredTokens = result.tokensAfter;
      // The instruction files go on in the system prompt of the compacted session (Claude Code: load_reason compact).
      for (const file of options.instructionFiles ?? []) {
        yield* session.emit({ type: RAISES.instructions_loaded, file, loadReason: "compact" });
      }
      return true;
    case "blocked":
      yield* warn(`A pre_compact hook blocked the compaction: ${result.reason}`);
      return false;
    case "nothing":
      yield* warn("Nothing to compact yet: the conversation is too short.");
      return false;
    case "failed":
      yield* warn(`The compaction failed; the conversation is unchanged: ${result.message}`);
      return false;
    case "aborted":
      return false;
    default:
      return result satisfies never;
  }
}
