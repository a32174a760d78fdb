/**
 * Every gate of agent/ reads a stop and the user's interrupt the same way
 * (gate-flow.ts), driven through `Agent.run()`: a stop ends the turn
 * "hook_stop" and then the session; the interrupt overtakes a stop and ends
 * only the turn "aborted", and the next prompt runs. The two gates that give
 * an end their own meaning are checked too: at turn_end (the turn is over)
 * a stop still ends the session; at compact_start a stop acts as a block.
 */
import { describe, expect, test } from "vitest";
import type { IncomingMessage } from "../../source/agent/event-data.js";
import type { AgentEvent } from "../../source/agent/events.js";
import type { AgentOptions, Inbox, TurnInput } from "../../source/agent/types.js";
import type { StopVerdict } from "../../source/agent/verdicts.js";
import { toRules } from "../../source/permissions/rules.js";
import { type FakeTurn, startFakeOpenAI } from "../support/fake-openai-server.js";
import { agentFixture, drive, makeAgent, ofType, testPolicy, types } from "./helpers.js";

const fx = agentFixture();

const STOP: StopVerdict = { action: "stop", reason: "emergency" };
const echo: FakeTurn = { toolCalls: [{ name: "Echo", input: { text: "x" } }] };
const texts = (n: number): FakeTurn[] => Array.from({ length: n }, (_, i) => ({ text: `t${i}` }));

function message(id: string): IncomingMessage {
  return {
    id,
    from: "other",
    to: "me",
    content: `hello ${id}`,
    broadcast: false,
    sentAt: 0,
    text: `hello ${id}`,
  };
}

/** An inbox that hands out `messages` at the first `take()`, and records what was settled. */
function onceInbox(messages: IncomingMessage[]): Inbox & { settled: string[] } {
  let pending = messages;
  const settled: string[] = [];
  return {
    settled,
    take() {
      const taken = pending;
      pending = [];
      return taken;
    },
    settle: (id) => settled.push(id),
  };
}

interface TurnGate {
  gate: string;
  /** The event answered (the first one that matches). */
  at: (e: AgentEvent) => boolean;
  script: FakeTurn[];
  options?: (dir: string) => Partial<AgentOptions>;
  inbox?: () => Inbox & { settled: string[] };
}

const askEcho = (dir: string): Partial<AgentOptions> => ({
  permissions: {
    ...testPolicy(dir),
    rules: {
      allow: [],
      ask: toRules(["Echo"], "ask", { scope: "flag", label: "--ask" }).rules,
      deny: [],
    },
  },
});

/** The gates raised inside a turn: two prompts, the first with a signal of its own. */
const TURN_GATES: TurnGate[] = [
  { gate: "user_prompt", at: (e) => e.type === "user_prompt", script: texts(3) },
  { gate: "model_request", at: (e) => e.type === "model_request", script: texts(3) },
  { gate: "model_response", at: (e) => e.type === "model_response", script: texts(3) },
  { gate: "tool_call_start", at: (e) => e.type === "tool_call_start", script: [echo, ...texts(3)] },
  {
    gate: "permission_request",
    at: (e) => e.type === "permission_request",
    script: [echo, ...texts(3)],
    options: askEcho,
  },
  { gate: "tool_call_end", at: (e) => e.type === "tool_call_end", script: [echo, ...texts(3)] },
  { gate: "stop_request", at: (e) => e.type === "stop_request", script: texts(3) },
  {
    gate: "stop_request at --max-steps",
    at: (e) => e.type === "stop_request" && e.stopReason === "max_steps",
    script: [echo, ...texts(3)],
    options: () => ({ maxSteps: 1 }),
  },
  {
    gate: "message_received (delivered during a turn)",
    at: (e) => e.type === "message_received",
    script: texts(3),
    inbox: () => onceInbox([message("m1"), message("m2")]),
  },
];

/** Runs two prompts; `answer` gets the first event `at` matches and the first turn's controller. */
async function twoTurns(
  c: TurnGate,
  answer: (turn: AbortController) => StopVerdict,
): Promise<AgentEvent[]> {
  fx.server = await startFakeOpenAI(c.script);
  const first = new AbortController();
  const input: TurnInput[] = [{ prompt: "one", signal: first.signal }, { prompt: "two" }];
  let answered = false;
  const inbox = c.inbox?.();
  return drive(
    makeAgent(fx.server, "chat", fx.dir, c.options?.(fx.dir) ?? {}),
    { prompts: input, ...(inbox ? { inbox } : {}) },
    (e) => {
      if (answered || !c.at(e)) return undefined;
      answered = true;
      return answer(first);
    },
  );
}

describe.each(TURN_GATES)("the $gate gate", (c) => {
  test("stop ends the turn 'hook_stop' and then the session; the next prompt does not run", async () => {
    const events = await twoTurns(c, () => STOP);
    expect(ofType(events, "turn_end").map((e) => [e.turn, e.stopReason, e.message])).toEqual([
      [1, "hook_stop", "emergency"],
    ]);
    expect(types(events).slice(-2)).toEqual(["turn_end", "session_end"]);
    expect(ofType(events, "session_end")[0]?.reason).toBe("hook_stop");
  });

  test("the user's interrupt overtakes a stop: the turn ends 'aborted', the next prompt runs", async () => {
    const events = await twoTurns(c, (turn) => {
      turn.abort();
      return STOP;
    });
    const ends = ofType(events, "turn_end");
    expect(ends.map((e) => [e.turn, e.stopReason])).toEqual([
      [1, "aborted"],
      [2, "end_turn"],
    ]);
    expect(ofType(events, "turn_start").map((e) => e.prompt)).toContain("two");
    expect(ofType(events, "session_end")[0]?.reason).toBe("completed");
  });
});

describe("gates with an end of their own", () => {
  test("message_received during a turn: after a stop or the interrupt, the messages behind it stay in the inbox", async () => {
    const gate = TURN_GATES.find((c) => c.inbox)!;
    for (const interrupt of [false, true]) {
      const inbox = onceInbox([message("m1"), message("m2")]);
      const events = await twoTurns({ ...gate, inbox: () => inbox }, (turn) => {
        if (interrupt) turn.abort();
        return STOP;
      });
      expect(ofType(events, "message_received").map((e) => e.message.id)).toEqual(["m1"]);
      expect(inbox.settled).toEqual(["m1"]);
      await fx.server?.close();
    }
  });

  test("turn_end: the turn is over, so a stop ends the session even after the user's interrupt", async () => {
    for (const interrupt of [false, true]) {
      const events = await twoTurns(
        { gate: "turn_end", at: (e) => e.type === "turn_end", script: texts(3) },
        (turn) => {
          if (interrupt) turn.abort();
          return STOP;
        },
      );
      expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["end_turn"]);
      expect(ofType(events, "session_end")[0]?.reason).toBe("hook_stop");
      await fx.server?.close();
    }
  });

  test("compact_start: a stop acts as a block (a warning), and the session goes on", async () => {
    fx.server = await startFakeOpenAI(texts(3));
    const input: TurnInput[] = [
      { prompt: "one" },
      { prompt: "", command: "compact" },
      { prompt: "two" },
    ];
    const events = await drive(makeAgent(fx.server, "chat", fx.dir), { prompts: input }, (e) =>
      e.type === "compact_start" ? STOP : undefined,
    );
    const warnings = ofType(events, "warning").filter((w) => w.source === "compaction");
    expect(warnings.map((w) => w.message)).toEqual([
      "A pre_compact hook blocked the compaction: emergency",
    ]);
    expect(ofType(events, "turn_end").map((e) => e.stopReason)).toEqual(["end_turn", "end_turn"]);
    expect(ofType(events, "session_end")[0]?.reason).toBe("completed");
  });

  test("session_start: a stop ends the session with a warning; the interrupt ends it 'aborted'", async () => {
    fx.server = await startFakeOpenAI(texts(1));
    const stopped = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: [{ prompt: "one" }] },
      (e) => (e.type === "session_start" ? STOP : undefined),
    );
    expect(types(stopped)).toEqual(["session_start", "warning", "session_end"]);
    expect(ofType(stopped, "session_end")[0]?.reason).toBe("hook_stop");

    const run = new AbortController();
    const aborted = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: [{ prompt: "one" }], signal: run.signal },
      (e) => {
        if (e.type !== "session_start") return undefined;
        run.abort();
        return STOP;
      },
    );
    expect(types(aborted)).toEqual(["session_start", "session_end"]);
    expect(ofType(aborted, "session_end")[0]?.reason).toBe("aborted");
    expect(fx.server.requests).toHaveLength(0);
  });

  test("message_received between turns: a stop ends the session before the turn", async () => {
    fx.server = await startFakeOpenAI(texts(1));
    const events = await drive(
      makeAgent(fx.server, "chat", fx.dir),
      { prompts: [{ prompt: "", message: message("m1") }, { prompt: "two" }] },
      (e) => (e.type === "message_received" ? STOP : undefined),
    );
    expect(types(events)).toEqual(["session_start", "message_received", "session_end"]);
    expect(ofType(events, "session_end")[0]?.reason).toBe("hook_stop");
    expect(fx.server.requests).toHaveLength(0);
  });
});
