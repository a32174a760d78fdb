import type { RunInput } from "../../source/agent/types.js";
import type { HookDefinition } from "../../source/hooks/contract/definition.js";
import type {
  HookActivityEvent,
  HookRef,
  InterceptedEvent,
} from "../../source/hooks/run/activity.js";
import type { PreparedSession } from "../../source/session/types.js";

export interface TurnContext {
  turn: number;
  prompt: string;
  signal: AbortSignal | undefined;
  sessionSignal: AbortSignal | undefined;
}

export interface FakeSessionOptions {
  model?: string;
  sessionId?: string;
  hooks?: PreparedSession["hooks"];
  warnings?: string[];
  /** The scripted turn: what the agent and interceptor would yield for one prompt. */
  turn?: (ctx: TurnContext) => AsyncGenerator<InterceptedEvent, void, undefined>;
  /** What session_end hooks would yield. */
  end?: () => AsyncGenerator<InterceptedEvent, void, undefined>;
  /** What the notification hooks would report to `notify` (default none). */
  notifyActivity?: HookActivityEvent[];
}

export interface FakeSession extends PreparedSession {
  prompts: string[];
  /** Calls of `notify`, in order. */
  notified: { message: string; notificationType: string }[];
  /** Resolves when the prompt iterable finished and session_end was yielded. */
  finished: Promise<{ reason: string }>;
}

export const usage = (i = 0, o = 0) => ({ inputTokens: i, outputTokens: o, totalTokens: i + o });

export const guardRef: HookRef = {
  id: "user:executable:/h/guard",
  name: "guard",
  scope: "user",
  sourceKind: "executable",
};

export function hookDef(over: Partial<HookDefinition> = {}): HookDefinition {
  return {
    id: guardRef.id,
    name: "guard",
    events: ["before_tool"],
    matcher: { tool: "Bash" },
    priority: 100,
    timeoutMs: 30000,
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "executable",
    file: "/h/guard",
    dialect: "acai",
    launch: { command: "/h/guard", args: [], viaShell: false },
    ...over,
  };
}

async function* endTurn(ctx: TurnContext, text: string): AsyncGenerator<InterceptedEvent> {
  yield { type: "text_delta", turn: ctx.turn, step: 1, text };
  yield {
    type: "model_response",
    turn: ctx.turn,
    step: 1,
    model: "fake-model",
    text,
    toolCalls: [],
    usage: usage(5, 3),
    finishReason: "stop",
    durationMs: 1,
  };
  yield { type: "turn_end", turn: ctx.turn, stopReason: "end_turn", text, usage: usage(5, 3) };
}

export function fakeSession(options: FakeSessionOptions = {}): FakeSession {
  let finish: (value: { reason: string }) => void = () => {};
  const finished = new Promise<{ reason: string }>((resolve) => {
    finish = resolve;
  });
  const prompts: string[] = [];
  const session: FakeSession = {
    sessionId: options.sessionId ?? "sess-1",
    modelId: options.model ?? "fake-model",
    cwd: "/tmp",
    projectDir: "/tmp",
    settings: {},
    acaiHome: "/tmp/acai",
    transcriptPath: "/tmp/t.jsonl",
    permissionMode: "default",
    hooks: options.hooks ?? { loaded: [], broken: [], projectHooksEnabled: true },
    warnings: options.warnings ?? [],
    prompts,
    finished,
    notified: [],
    async notify(message, notificationType) {
      session.notified.push({ message, notificationType });
      return options.notifyActivity ?? [];
    },
    async *run(input: RunInput) {
      yield {
        type: "session_start",
        sessionId: session.sessionId,
        model: session.modelId,
        cwd: "/tmp",
        transcriptPath: "/tmp/t.jsonl",
        source: "startup",
      };
      let turn = 0;
      for await (const t of input.prompts) {
        turn++;
        prompts.push(t.prompt);
        yield { type: "user_prompt", turn, prompt: t.prompt };
        yield { type: "turn_start", turn, prompt: t.prompt };
        const ctx = { turn, prompt: t.prompt, signal: t.signal, sessionSignal: input.signal };
        yield* options.turn ? options.turn(ctx) : endTurn(ctx, `echo: ${t.prompt}`);
      }
      if (options.end) yield* options.end();
      // As the agent does: the caller's endReason when the prompts run out.
      const reason = input.signal?.aborted ? "aborted" : (input.endReason?.() ?? "completed");
      yield { type: "session_end", reason };
      finish({ reason });
    },
  };
  return session;
}

/** Resolves when `signal` aborts. */
export function aborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) resolve();
    else signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

/**
 * Polls `check` until it gives a value. The deadline only decides when a
 * test that will fail says so: 10 s, well inside vitest's 20 s, because a
 * busy machine (four test workers on two cores) can take seconds to render a
 * 1-character stream through ink.
 */
export async function waitFor<T>(
  check: () => T | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
