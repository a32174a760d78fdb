/**
 * One compaction, as the agent runs it: `compact_start` (the `pre_compact`
 * gate: a block means not now; context is instructions for the summary), the
 * summary asked of the model, the history replaced by the summary plus the
 * recent messages (a `compact_boundary` in the transcript, then those
 * messages), `compact_end` (`post_compact`), then `session_start` with
 * source `compact`, as Claude Code does.
 */
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import type { Usage } from "../event-data.js";
import type { AgentEvent, Emit } from "../events.js";
import { gateFlow } from "../gate-flow.js";
import type { History } from "../history.js";
import { streamModelStep } from "../model-step.js";
import { describeProviderError } from "../provider-error.js";
import { RAISES } from "../raises.js";
import type { Verdict } from "../verdicts.js";
import { estimateTokens, splitForCompaction } from "./split.js";

export type CompactTrigger = "manual" | "auto";

export interface CompactionContext {
  emit: Emit;
  history: History;
  /** Writes the boundary line: what follows it in the transcript is the conversation. */
  boundary(trigger: CompactTrigger, tokensBefore: number): void;
  model: LanguageModel;
  modelTools: ToolSet;
  signal: AbortSignal;
  now: () => number;
  /** Tokens of the conversation as the server last measured them, if it did. */
  measuredTokens: number | undefined;
  /** Share of the conversation kept as it is (default 0.3). */
  keepShare?: number;
  maxModelRetries: number;
  /** What `session_start` after the compaction carries. */
  session: {
    sessionId: string;
    model: string;
    modelProvider: string;
    cwd: string;
    transcriptPath: string;
  };
}

export type CompactionResult =
  | { kind: "compacted"; tokensAfter: number; usage: Usage }
  | { kind: "blocked"; reason: string }
  | { kind: "nothing" }
  | { kind: "failed"; message: string }
  | { kind: "aborted" };

const SUMMARY_SYSTEM =
  "You summarise a coding agent's conversation so that the agent can go on from the summary alone. Answer with the summary only, in plain text; call no tools.";

const SUMMARY_REQUEST = [
  "Summarise the conversation so far for yourself, to continue the work from it. Keep:",
  "- what the user asked for, in their words where it matters, and what is still open;",
  "- decisions made, and why;",
  "- files read or changed (paths), commands run and what they showed, errors met;",
  "- the state of the work and the next steps.",
  "Be complete but concise.",
].join("\n");

export async function* compactHistory(
  ctx: CompactionContext,
  trigger: CompactTrigger,
  instructions: string,
): AsyncGenerator<AgentEvent, CompactionResult, Verdict | undefined> {
  const messages = [...ctx.history.messages];
  const tokensBefore = ctx.measuredTokens ?? estimateTokens(messages);
  const gate = yield* ctx.emit({
    type: RAISES.pre_compact,
    trigger,
    customInstructions: instructions,
    tokensBefore,
    messages: messages.length,
  });
  const flow = gateFlow(gate, ctx.signal);
  switch (flow.kind) {
    case "end_turn":
      return { kind: "aborted" };
    case "end_session":
      // pre_compact's stop acts as a block: not now (docs/hooks.md).
      return { kind: "blocked", reason: flow.end.message };
    case "go_on":
      break;
    default:
      return flow satisfies never;
  }
  if (flow.verdict?.action === "block") return { kind: "blocked", reason: flow.verdict.reason };
  const hookInstructions = flow.verdict?.context ?? [];
  const split = splitForCompaction(messages, ctx.keepShare ?? 0.3);
  if (split.older.length === 0) return { kind: "nothing" };

  const started = ctx.now();
  const summary = await summarise(ctx, split.older, [instructions, ...hookInstructions]);
  if (summary.kind !== "ok") return summary;

  const replaced: ModelMessage[] = [
    { role: "user", content: summaryMessage(summary.text) },
    ...split.recent,
  ];
  ctx.boundary(trigger, tokensBefore);
  ctx.history.replace(replaced);
  // Scaled by what the server measured, when it did: the estimate alone is rough.
  const ratio = estimateTokens(replaced) / Math.max(1, estimateTokens(messages));
  const tokensAfter = Math.round(tokensBefore * ratio);
  yield* ctx.emit({
    type: RAISES.post_compact,
    trigger,
    summary: summary.text,
    tokensBefore,
    tokensAfter,
    messagesBefore: messages.length,
    messagesAfter: replaced.length,
    usage: summary.usage,
    durationMs: Math.max(0, ctx.now() - started),
  });
  yield* ctx.emit({ type: RAISES.session_start, ...ctx.session, source: "compact" });
  return { kind: "compacted", tokensAfter, usage: summary.usage };
}

function summaryMessage(summary: string): string {
  return `This session was compacted: the earlier conversation is summarised below.\n<summary>\n${summary}\n</summary>`;
}

type Summary =
  | { kind: "ok"; text: string; usage: Usage }
  | { kind: "failed"; message: string }
  | { kind: "aborted" };

async function summarise(
  ctx: CompactionContext,
  older: readonly ModelMessage[],
  instructions: readonly string[],
): Promise<Summary> {
  const extra = instructions.filter((text) => text.trim() !== "");
  const request = extra.length
    ? `${SUMMARY_REQUEST}\n\nAlso follow these instructions for the summary:\n${extra.join("\n")}`
    : SUMMARY_REQUEST;
  const stream = streamModelStep({
    model: ctx.model,
    system: SUMMARY_SYSTEM,
    messages: [...older, { role: "user", content: request }],
    tools: ctx.modelTools,
    maxRetries: ctx.maxModelRetries,
    signal: ctx.signal,
  });
  while (true) {
    const next = await stream.next();
    if (!next.done) continue;
    const outcome = next.value;
    switch (outcome.kind) {
      case "ok":
        if (outcome.text.trim() === "")
          return { kind: "failed", message: "the model's summary was empty" };
        return { kind: "ok", text: outcome.text.trim(), usage: outcome.usage };
      case "error":
        return { kind: "failed", message: describeProviderError(outcome.error, ctx.model) };
      case "aborted":
        return { kind: "aborted" };
      default:
        return outcome satisfies never;
    }
  }
}
