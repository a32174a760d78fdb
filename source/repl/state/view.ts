import type { StopReason, Usage } from "../../agent/event-data.js";
import { ZERO_USAGE } from "../../agent/usage.js";
import type { HookEventName } from "../../hooks/contract/definition.js";
import type { HookOutcome, HookRef, InterceptedEvent } from "../../hooks/run/activity.js";
import type { ModelPrice } from "../../models/pricing.js";
import type { Fence } from "../format.js";
import type { HooksSnapshot } from "../hooks-snapshot.js";
import type { SubagentView } from "../subagents.js";

/**
 * The REPL's view state: finished things go to `items` (rendered once, by
 * ink's <Static>); what is still moving (streamed text, running tools and
 * hooks) stays live. The reducer that folds events into it is ../state.ts.
 */

export type Tone = "info" | "warn" | "error" | "dim";
export type ToolStatus = "running" | "ok" | "error" | "blocked" | "interrupted";

export interface ToolView {
  toolCallId: string;
  toolName: string;
  input: unknown;
  status: ToolStatus;
  startedAt: number;
  durationMs?: number;
  /** Output the model saw, or the error text. */
  output?: string;
  /** Number shown on the block, for `/expand N`. */
  seq: number;
}

interface RunningHook {
  key: string;
  hook: HookRef;
  event: HookEventName;
  startedAt: number;
  /** The hook's `statusMessage`, one line without control characters: shown in place of its name. */
  statusMessage?: string;
}

export interface HookLast {
  name: string;
  event: HookEventName;
  outcome: HookOutcome;
  at: number;
  durationMs: number;
  detail?: string;
}

export type Item =
  | { kind: "banner"; id: number; text: string; tone: Tone }
  | { kind: "user"; id: number; text: string }
  | {
      kind: "assistant";
      id: number;
      /** Markdown, rendered on screen. */
      text: string;
      continued: boolean;
      /** The code block this part of a streamed message starts inside. */
      fence?: Fence;
    }
  | { kind: "tool"; id: number; tool: ToolView }
  | {
      kind: "hook";
      id: number;
      name: string;
      event: HookEventName;
      outcome: HookOutcome;
      detail?: string;
      message?: string;
      durationMs: number;
    }
  | { kind: "warning"; id: number; text: string; source?: string }
  | { kind: "error"; id: number; text: string }
  | {
      kind: "turn";
      id: number;
      stopReason: StopReason;
      message?: string;
      usage: Usage;
      elapsedMs: number;
      costUsd?: number;
    }
  | {
      kind: "notice";
      id: number;
      title?: string;
      lines: string[];
      /** Key / description rows, descriptions wrapping under their own column. */
      table?: ReadonlyArray<readonly [string, string]>;
    }
  | { kind: "detail"; id: number; title: string; text: string }
  | {
      kind: "ask";
      id: number;
      /** The hook that asked; none: a permission question about `tool`. */
      name?: string;
      /** The call asked about, summarized (`Bash npm test`). */
      tool?: string;
      reason: string;
      allowed: boolean;
      /** What came with the answer: a rule kept, what the model was told. */
      note?: string;
    }
  | { kind: "hooks"; id: number; snapshot: HooksSnapshot }
  | { kind: "subagent"; id: number; view: SubagentView };

export type NewItem = Item extends infer I ? (I extends Item ? Omit<I, "id"> : never) : never;

interface TurnView {
  number: number;
  startedAt: number;
  aborting: boolean;
  usage: Usage;
}

export interface StreamView {
  turn: number;
  step: number;
  text: string;
  /** Part of this message already moved to `items`. */
  continued: boolean;
  /** The code block `text` starts inside. */
  fence?: Fence;
}

export interface ViewState {
  items: Item[];
  nextId: number;
  /** Bumped by /clear so <Static> starts over. */
  epoch: number;
  stream: StreamView | null;
  tools: ToolView[];
  hooks: RunningHook[];
  turn: TurnView | null;
  totals: Usage;
  /** USD spent in this session; null once a turn ran on a model without a known price. */
  sessionCostUsd: number | null;
  lastTurn?: { usage: Usage; elapsedMs: number; stopReason: StopReason; costUsd?: number };
  model: string;
  /** The session model's price; absent for local servers, replay and unknown models. */
  price?: ModelPrice;
  sessionId?: string;
  hookLast: Record<string, HookLast>;
  toolSeq: number;
  /**
   * The user's answers to hook questions, waiting for that hook's `hook_end`:
   * "you allowed …" goes below the hook's own line, not above it.
   */
  answers: AnsweredAsk[];
  /** `turn:step` of the last step that streamed text, so its model_response does not repeat it. */
  streamedStep?: string;
  /** Subagents running, and finished ones waiting for their Task call to end (../subagents.ts). */
  subagents: SubagentView[];
}

/** "you allowed/denied …", held until the hook that asked has ended. */
export interface AnsweredAsk {
  hookId: string;
  event: HookEventName;
  item: Extract<NewItem, { kind: "ask" }>;
}

export function initialViewState(model = ""): ViewState {
  return {
    items: [],
    nextId: 1,
    epoch: 0,
    stream: null,
    tools: [],
    hooks: [],
    turn: null,
    totals: ZERO_USAGE,
    sessionCostUsd: 0,
    model,
    hookLast: {},
    toolSeq: 0,
    answers: [],
    subagents: [],
  };
}

/** The intercepted event of one type, as its reducer gets it. */
export type EventOf<T extends InterceptedEvent["type"]> = Extract<InterceptedEvent, { type: T }>;
