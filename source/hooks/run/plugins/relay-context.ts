/**
 * agent-relay's `HookContext` state (docs/relay.md "Coming from agent-relay"):
 * what the session did recently, as relay-shaped handlers read it — the last
 * 50 output chunks, the last 20 messages in and out, when the session started
 * and when the agent last wrote. Fed with every agent event on its way to the
 * interceptor (`tapEvents`), so a hook sees the output it is called for.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";

const RECENT_OUTPUT = 50;
const RECENT_MESSAGES = 20;
/** One chunk or message as kept here (agent-relay shows hooks recent chunks, not everything). */
const MAX_KEPT_CHARS = 5000;

interface RecentMessage {
  from: string;
  to: string;
  content: string;
  direction: "in" | "out";
  timestamp: number;
}

function pushBounded<T>(list: T[], item: T, max: number): void {
  list.push(item);
  if (list.length > max) list.splice(0, list.length - max);
}

export class RelayContextTracker {
  readonly sessionStartTime: number;
  private lastOutputTime: number;
  private readonly recentOutput: string[] = [];
  private readonly recentMessages: RecentMessage[] = [];

  /** agentId is the session's id (the worker takes it from the payload). */
  constructor(private readonly now: () => number = Date.now) {
    this.sessionStartTime = now();
    this.lastOutputTime = this.sessionStartTime;
  }

  observe(event: AgentEvent): void {
    switch (event.type) {
      case "text_delta":
        this.lastOutputTime = this.now();
        return;
      case "output":
        this.lastOutputTime = this.now();
        pushBounded(this.recentOutput, event.text.slice(0, MAX_KEPT_CHARS), RECENT_OUTPUT);
        return;
      case "message_received":
        this.message(event.message.from, event.message.to, event.message.content, "in");
        return;
      case "message_sent":
        this.message(event.message.from, event.message.to, event.message.content, "out");
        return;
      default:
        return;
    }
  }

  private message(from: string, to: string, content: string, direction: "in" | "out"): void {
    const kept = { from, to, content: content.slice(0, MAX_KEPT_CHARS), direction };
    pushBounded(this.recentMessages, { ...kept, timestamp: this.now() }, RECENT_MESSAGES);
  }

  /** A copy, as plain data: it crosses to a plugin's worker. */
  context(): Record<string, unknown> {
    const now = this.now();
    return {
      recentOutput: [...this.recentOutput],
      recentMessages: this.recentMessages.map((m) => ({ ...m })),
      sessionStartTime: this.sessionStartTime,
      lastOutputTime: this.lastOutputTime,
      idleSeconds: Math.max(0, Math.floor((now - this.lastOutputTime) / 1000)),
    };
  }
}

type Run = AsyncGenerator<AgentEvent, void, Verdict | undefined>;

/** The run's events, each shown to `tracker` before it goes on; verdicts pass back unchanged. */
export async function* tapEvents(run: Run, tracker: RelayContextTracker): Run {
  let verdict: Verdict | undefined;
  for (;;) {
    const next = await run.next(verdict);
    if (next.done === true) return;
    tracker.observe(next.value);
    verdict = yield next.value;
  }
}
