import { fromSubagent, type StopReason, type Usage } from "../agent/events.js";
import type {
  HookActivityEvent,
  HookOutcome,
  HookRef,
  InterceptedEvent,
} from "../hooks/activity.js";
import type { HookEventName } from "../hooks/definition.js";
import { costUsd, type ModelPrice } from "../models/pricing.js";
import { inertText } from "../terminal/inert-text.js";
import { type Fence, splitFinishedMarkdown } from "./format.js";
import type { HooksSnapshot } from "./hooks-snapshot.js";
import { reduceSubagents, type SubagentView } from "./subagents.js";

/**
 * The REPL's view state and the pure reducer that folds intercepted events
 * into it. Finished things go to `items` (rendered once, by ink's <Static>);
 * what is still moving (streamed text, running tools and hooks) stays live.
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

export interface RunningHook {
  key: string;
  hook: HookRef;
  event: HookEventName;
  startedAt: number;
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
    }
  | { kind: "hooks"; id: number; snapshot: HooksSnapshot }
  | { kind: "subagent"; id: number; view: SubagentView };

export type NewItem = Item extends infer I ? (I extends Item ? Omit<I, "id"> : never) : never;

export interface TurnView {
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
  /** Subagents running, and finished ones waiting for their Task call to end (subagents.ts). */
  subagents: SubagentView[];
}

/** "you allowed/denied …", held until the hook that asked has ended. */
export interface AnsweredAsk {
  hookId: string;
  event: HookEventName;
  item: Extract<NewItem, { kind: "ask" }>;
}

export type Action =
  | { type: "event"; event: InterceptedEvent; at: number }
  | { type: "answered"; answer: AnsweredAsk }
  | { type: "item"; item: NewItem }
  | { type: "session"; model: string; sessionId?: string; price?: ModelPrice }
  | { type: "aborting" }
  | { type: "clear" };

export const ZERO_USAGE: Usage = Object.freeze({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });

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

function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    totalTokens: a.totalTokens + b.totalTokens,
  };
}

function push(state: ViewState, ...items: NewItem[]): ViewState {
  if (items.length === 0) return state;
  let id = state.nextId;
  const added = items.map((item) => ({ ...item, id: id++ }) as Item);
  return { ...state, items: [...state.items, ...added], nextId: id };
}

/** Moves whatever streamed text is left to `items`. */
function flushStream(state: ViewState): ViewState {
  const stream = state.stream;
  if (!stream) return state;
  const text = stream.text.replace(/\s+$/, "");
  const next = { ...state, stream: null };
  if (!text) return next;
  return push(next, assistantItem(text, stream.continued, stream.fence));
}

function assistantItem(text: string, continued: boolean, fence: Fence | undefined): NewItem {
  return { kind: "assistant", text, continued, ...(fence ? { fence } : {}) };
}

function ensureTurn(state: ViewState, turn: number, at: number): ViewState {
  if (state.turn && state.turn.number === turn) return state;
  return { ...state, turn: { number: turn, startedAt: at, aborting: false, usage: ZERO_USAGE } };
}

/** Hook outcomes that always get an inline line. */
const NOTABLE: ReadonlySet<HookOutcome> = new Set([
  "block",
  "modify",
  "ask",
  "allow",
  "retry",
  "stop",
  "failed",
  "timeout",
  "aborted",
]);

function finishTool(state: ViewState, tool: ToolView): ViewState {
  const tools = state.tools.filter((t) => t.toolCallId !== tool.toolCallId);
  // A Task call's subagent goes below it, collapsed.
  const nested = state.subagents.filter((v) => v.toolCallId === tool.toolCallId);
  const subagents = state.subagents.filter((v) => !nested.includes(v));
  return push(
    { ...state, tools, subagents },
    { kind: "tool", tool },
    ...nested.map((view): NewItem => ({ kind: "subagent", view })),
  );
}

function isHookActivity(event: InterceptedEvent): event is HookActivityEvent {
  return event.type === "hook_start" || event.type === "hook_end" || event.type === "hook_warning";
}

/** A subagent's event: its nested view; one that ended gets its `/expand` number. */
function reduceSubagentEvent(
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

function startedTool(state: ViewState, toolCallId: string): ToolView | undefined {
  return state.tools.find((t) => t.toolCallId === toolCallId);
}

/** Answers of the hook that just ended (all of them with no hook given) go to `items`. */
function flushAnswers(state: ViewState, hook?: { id: string; event: HookEventName }): ViewState {
  if (state.answers.length === 0) return state;
  const due = (a: AnsweredAsk) => !hook || (a.hookId === hook.id && a.event === hook.event);
  const answers = state.answers.filter((a) => !due(a));
  if (answers.length === state.answers.length) return state;
  const items = state.answers.filter(due).map((a) => a.item);
  return push({ ...state, answers }, ...items);
}

/** Whether `message` is already on screen as an error of this turn (a provider error is both an `error` event and the turn's end). */
function shownThisTurn(items: readonly Item[], message: string | undefined): boolean {
  if (!message) return false;
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!item || item.kind === "user") return false;
    if (item.kind === "error" && item.text === message) return true;
  }
  return false;
}

function reduceEvent(state: ViewState, event: InterceptedEvent, at: number): ViewState {
  // A subagent's hook activity shows like the session's; its other events go to its nested view.
  if (fromSubagent(event) && !isHookActivity(event)) return reduceSubagentEvent(state, event, at);
  switch (event.type) {
    case "session_start":
      return { ...state, model: event.model, sessionId: event.sessionId };
    case "user_prompt":
      return push(flushStream(ensureTurn(state, event.turn, at)), {
        kind: "user",
        text: event.prompt,
      });
    case "turn_start":
      return ensureTurn(state, event.turn, at);
    case "step_start":
    case "model_request":
    case "stop_request":
    case "notification":
    case "permission_request":
    case "output":
    case "pattern":
    case "idle":
      return state;
    case "text_delta": {
      let next = state;
      const s = next.stream;
      if (s && (s.turn !== event.turn || s.step !== event.step)) next = flushStream(next);
      const stream: StreamView = next.stream ?? {
        turn: event.turn,
        step: event.step,
        text: "",
        continued: false,
      };
      const { done, rest, restFence } = splitFinishedMarkdown(
        stream.text + event.text,
        stream.fence,
      );
      const streamedStep = `${event.turn}:${event.step}`;
      const { fence: _open, ...open } = stream;
      const live: StreamView = { ...open, text: rest, ...(restFence ? { fence: restFence } : {}) };
      if (done === undefined) return { ...next, streamedStep, stream: live };
      return push(
        { ...next, streamedStep, stream: { ...live, continued: true } },
        assistantItem(done, stream.continued, stream.fence),
      );
    }
    case "model_response": {
      const streamed = state.streamedStep === `${event.turn}:${event.step}`;
      let next = flushStream(state);
      if (!streamed && event.text.trim()) {
        next = push(next, { kind: "assistant", text: event.text.trimEnd(), continued: false });
      }
      if (next.turn) {
        next = { ...next, turn: { ...next.turn, usage: addUsage(next.turn.usage, event.usage) } };
      }
      return { ...next, model: event.model || next.model };
    }
    case "tool_call_start": {
      const next = flushStream(state);
      if (startedTool(next, event.toolCallId)) return next;
      const seq = next.toolSeq + 1;
      const tool: ToolView = {
        toolCallId: event.toolCallId,
        toolName: event.toolName,
        input: event.input,
        status: "running",
        startedAt: at,
        seq,
      };
      return { ...next, toolSeq: seq, tools: [...next.tools, tool] };
    }
    case "tool_call_end": {
      const started = startedTool(state, event.toolCallId);
      const seq = started?.seq ?? state.toolSeq + 1;
      return finishTool(
        { ...flushStream(state), toolSeq: Math.max(state.toolSeq, seq) },
        {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
          status: "ok",
          startedAt: started?.startedAt ?? at - event.durationMs,
          durationMs: event.durationMs,
          output: event.output,
          seq,
        },
      );
    }
    case "tool_call_error": {
      const started = startedTool(state, event.toolCallId);
      const seq = started?.seq ?? state.toolSeq + 1;
      const status: ToolStatus = event.blocked
        ? "blocked"
        : event.interrupted
          ? "interrupted"
          : "error";
      return finishTool(
        { ...flushStream(state), toolSeq: Math.max(state.toolSeq, seq) },
        {
          toolCallId: event.toolCallId,
          toolName: event.toolName,
          input: event.input,
          status,
          startedAt: started?.startedAt ?? at - event.durationMs,
          durationMs: event.durationMs,
          output: event.error,
          seq,
        },
      );
    }
    case "step_end":
      return flushStream(state);
    case "turn_end": {
      let next = flushAnswers(flushStream(state));
      // Tools the agent never closed (it should have): keep them, marked interrupted.
      for (const tool of next.tools) {
        next = finishTool(next, {
          ...tool,
          status: "interrupted",
          durationMs: at - tool.startedAt,
        });
      }
      const elapsedMs = next.turn ? at - next.turn.startedAt : 0;
      const usage = event.usage;
      const cost = next.price ? costUsd(usage, next.price) : undefined;
      next = {
        ...next,
        turn: null,
        totals: addUsage(next.totals, usage),
        sessionCostUsd:
          cost === undefined || next.sessionCostUsd === null ? null : next.sessionCostUsd + cost,
        lastTurn: {
          usage,
          elapsedMs,
          stopReason: event.stopReason,
          ...(cost !== undefined ? { costUsd: cost } : {}),
        },
      };
      if (event.stopReason === "end_turn") return next;
      const message = shownThisTurn(next.items, event.message) ? undefined : event.message;
      return push(next, {
        kind: "turn",
        stopReason: event.stopReason,
        usage,
        elapsedMs,
        ...(cost !== undefined ? { costUsd: cost } : {}),
        ...(message ? { message } : {}),
      });
    }
    case "compact_start":
      return state;
    case "compact_end":
      return push(flushStream(state), {
        kind: "notice",
        lines: [compactedLine(event)],
      });
    case "warning":
      return push(state, {
        kind: "warning",
        text: event.message,
        ...(event.source ? { source: event.source } : {}),
      });
    case "error":
      return push(flushStream(state), { kind: "error", text: event.message });
    case "session_end": {
      const next = {
        ...flushAnswers(flushStream(state)),
        hooks: [],
        tools: [],
        subagents: [],
        turn: null,
      };
      if (event.reason === "user_exit" || event.reason === "completed") return next;
      return push(next, {
        kind: "banner",
        text: `session ended: ${event.reason.replace("_", " ")}`,
        tone: event.reason === "aborted" ? "warn" : "error",
      });
    }
    case "hook_start": {
      const key = `${event.hook.id}\u0000${event.event}`;
      const hooks = state.hooks.filter((h) => h.key !== key);
      return {
        ...state,
        hooks: [
          ...hooks,
          { key, hook: event.hook, event: event.event, startedAt: event.startedAt },
        ],
      };
    }
    case "hook_end": {
      const key = `${event.hook.id}\u0000${event.event}`;
      const hookLast: Record<string, HookLast> = {
        ...state.hookLast,
        [event.hook.id]: {
          name: event.hook.name,
          event: event.event,
          outcome: event.outcome,
          at,
          durationMs: event.durationMs,
          ...(event.detail ? { detail: event.detail } : {}),
        },
      };
      const next = { ...state, hooks: state.hooks.filter((h) => h.key !== key), hookLast };
      const ended = { id: event.hook.id, event: event.event };
      if (!NOTABLE.has(event.outcome) && !event.message) return flushAnswers(next, ended);
      const line = push(flushStream(next), {
        kind: "hook",
        name: event.hook.name,
        event: event.event,
        outcome: event.outcome,
        durationMs: event.durationMs,
        ...(event.detail ? { detail: event.detail } : {}),
        ...(event.message ? { message: event.message } : {}),
      });
      return flushAnswers(line, ended);
    }
    case "message_received":
      return push(flushStream(state), {
        kind: "banner",
        tone: "dim",
        // Another agent's text: inert on the terminal.
        text: inertText(
          `message from ${event.message.from}${event.message.broadcast ? " (to all)" : ""}: ${firstLineOf(event.message.content)}`,
        ),
      });
    case "message_sent":
      return push(flushStream(state), {
        kind: "banner",
        tone: "dim",
        text: inertText(sentLine(event.message)),
      });
    case "hook_warning":
      return push(state, {
        kind: "warning",
        text: event.message,
        ...(event.hook ? { source: `hook ${event.hook.name}` } : {}),
      });
    default:
      return event satisfies never;
  }
}

export function reduce(state: ViewState, action: Action): ViewState {
  switch (action.type) {
    case "event":
      return reduceEvent(state, action.event, action.at);
    case "item":
      return push(flushStream(state), action.item);
    case "answered":
      return { ...state, answers: [...state.answers, action.answer] };
    case "session": {
      // A new session (the first, or after /model): its counters start at 0, as cost is per model.
      const { price: _previous, lastTurn: _last, ...rest } = state;
      return {
        ...rest,
        totals: ZERO_USAGE,
        sessionCostUsd: 0,
        ...(action.price ? { price: action.price } : {}),
        model: action.model,
        ...(action.sessionId ? { sessionId: action.sessionId } : {}),
        hooks: [],
        tools: [],
        subagents: [],
        turn: null,
        stream: null,
      };
    }
    case "aborting":
      return state.turn ? { ...state, turn: { ...state.turn, aborting: true } } : state;
    case "clear":
      return {
        ...initialViewState(state.model),
        epoch: state.epoch + 1,
        nextId: state.nextId,
        toolSeq: state.toolSeq,
        hookLast: state.hookLast,
        ...(state.sessionId ? { sessionId: state.sessionId } : {}),
        ...(state.price ? { price: state.price } : {}),
      };
    default:
      return action satisfies never;
  }
}

/**
 * What the newest running tool is really waiting for. The agent announces a
 * call before its `before_tool` hooks run (and before a hook's `ask` is
 * answered): until then the tool has not started, so its block says so.
 */
export function toolGate(
  view: Pick<ViewState, "tools" | "hooks">,
  ask: { hook?: HookRef; event: HookEventName } | null,
): { toolCallId: string; label: string } | undefined {
  const tool = view.tools.findLast((t) => t.status === "running");
  if (!tool) return undefined;
  if (ask?.event === "permission_request") {
    return { toolCallId: tool.toolCallId, label: "waiting for your permission" };
  }
  const gating = view.hooks.filter(
    (h) => h.event === "before_tool" || h.event === "permission_request",
  );
  if (gating.length === 0) return undefined;
  const names = gating.map((h) => h.hook.name).join(", ");
  return {
    toolCallId: tool.toolCallId,
    label: `waiting for ${gating.length === 1 ? "hook" : "hooks"} ${names}`,
  };
}

/** "Compacted the conversation: ~12,400 → ~2,100 tokens (40 → 5 messages)." */
export function compactedLine(event: {
  trigger: string;
  tokensBefore: number;
  tokensAfter: number;
  messagesBefore: number;
  messagesAfter: number;
}): string {
  const n = (value: number) => value.toLocaleString("en-US");
  return `Compacted the conversation (${event.trigger}): ~${n(event.tokensBefore)} → ~${n(event.tokensAfter)} tokens (${event.messagesBefore} → ${event.messagesAfter} messages).`;
}

function firstLineOf(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

function sentLine(message: { to: string; delivered: string[]; kept: string[] }): string {
  const to = message.to === "*" ? "every running agent" : message.to;
  const where =
    message.delivered.length > 0
      ? `delivered to ${message.delivered.join(", ")}`
      : message.kept.length > 0
        ? `kept for ${message.kept.join(", ")} (not running)`
        : "no agent was running";
  return `message sent to ${to}: ${where}`;
}
