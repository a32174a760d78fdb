import { mkdtemp, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  EmbeddedTransport,
  MAX_IN_FLIGHT,
  UnknownAgentError,
} from "../../source/relay/embedded.js";
import { MAX_MESSAGE_CHARS, RelayError, type RelayMessage } from "../../source/relay/message.js";
import { type AgentRecord, MailboxFullError, RelayStore } from "../../source/relay/store.js";
import { NameTakenError } from "../../source/relay/transport.js";
import { wakeDir } from "../../source/relay/wake.js";

let dir: string;
const open: EmbeddedTransport[] = [];

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-relay-"));
});
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  await rm(dir, { recursive: true, force: true });
});

function agent(name: string, extra: Partial<AgentRecord> = {}): AgentRecord {
  return {
    name,
    sessionId: `session-${name}`,
    pid: process.pid,
    host: os.hostname(),
    cwd: "/project",
    startedAt: 1,
    listening: false,
    ...extra,
  };
}

async function transport(
  options: { maxPending?: number; isAlive?: (pid: number) => boolean } = {},
): Promise<EmbeddedTransport> {
  const store = await RelayStore.open({ dir, ...options });
  const t = new EmbeddedTransport({ store, wakeDir: wakeDir(dir), fallbackPollMs: 50 });
  open.push(t);
  return t;
}

/** Joins as `name`; resolves messages as they arrive. */
async function receiver(name: string) {
  const t = await transport();
  const got: RelayMessage[] = [];
  let waiter: (() => void) | undefined;
  await t.join(agent(name), (m) => {
    got.push(m);
    waiter?.();
  });
  return {
    t,
    got,
    async next(count: number): Promise<RelayMessage[]> {
      while (got.length < count) await new Promise<void>((resolve) => (waiter = resolve));
      return got;
    },
  };
}

describe("embedded relay transport", () => {
  it("delivers a direct message and a broadcast, and lists running agents", async () => {
    const alice = await receiver("alice");
    const bob = await receiver("bob");
    const carol = await receiver("carol");
    const report = await alice.t.send({ from: "alice", to: "bob", content: "hi bob" });
    expect(report).toEqual({ delivered: ["bob"], kept: [] });
    const [first] = await bob.next(1);
    expect(first).toMatchObject({ from: "alice", to: "bob", content: "hi bob", broadcast: false });
    const all = await carol.t.send({ from: "carol", to: "*", content: "status?" });
    expect(all.delivered.sort()).toEqual(["alice", "bob"]);
    expect((await alice.next(1))[0]).toMatchObject({ from: "carol", broadcast: true });
    expect((await bob.next(2))[1]).toMatchObject({ content: "status?" });
    expect(carol.got).toEqual([]);
    expect((await alice.t.agents()).map((a) => a.name)).toEqual(["alice", "bob", "carol"]);
  });

  it("keeps an unsettled message for the next agent of that name (at least once)", async () => {
    const first = await receiver("bob");
    const sender = await transport();
    await sender.send({ from: "alice", to: "bob", content: "one" });
    await first.next(1);
    await first.t.close(); // not settled
    const second = await receiver("bob");
    const [again] = await second.next(1);
    expect(again?.content).toBe("one");
    second.t.settle(again?.id ?? "");
    await second.t.close();
    const third = await receiver("bob");
    await sender.send({ from: "alice", to: "bob", content: "two" });
    const got = await third.next(1);
    expect(got.map((m) => m.content)).toEqual(["two"]);
  });

  it("keeps a message for a known agent that is not running, and refuses a name never seen", async () => {
    const bob = await receiver("bob");
    await bob.t.close();
    const sender = await transport();
    expect(await sender.send({ from: "alice", to: "bob", content: "later" })).toEqual({
      delivered: [],
      kept: ["bob"],
    });
    await expect(sender.send({ from: "alice", to: "nobody", content: "x" })).rejects.toThrow(
      UnknownAgentError,
    );
    expect(
      await sender.send({ from: "alice", to: "nobody", content: "x" }, { allowUnknown: true }),
    ).toEqual({ delivered: [], kept: ["nobody"] });
    const back = await receiver("bob");
    expect((await back.next(1))[0]?.content).toBe("later");
  });

  it("refuses a second agent of the same name while the first runs, not after it died", async () => {
    const first = await transport();
    await first.join(agent("x"), () => {});
    const second = await transport();
    await expect(second.join(agent("x", { sessionId: "other" }), () => {})).rejects.toThrow(
      NameTakenError,
    );
    const dead = await transport({ isAlive: () => false });
    await expect(dead.join(agent("x", { sessionId: "third" }), () => {})).resolves.toBeUndefined();
  });

  it("caps content, checks names, bounds a recipient's waiting messages and what is read at once", async () => {
    const sender = await transport({ maxPending: 3 });
    await expect(
      sender.send({ from: "a", to: "b", content: "x".repeat(MAX_MESSAGE_CHARS + 1) }),
    ).rejects.toThrow(/capped at 5000 characters/);
    await expect(sender.send({ from: "a", to: "../etc", content: "x" })).rejects.toThrow(
      RelayError,
    );
    for (let i = 0; i < 3; i++)
      await sender.send({ from: "a", to: "b", content: `m${i}` }, { allowUnknown: true });
    await expect(
      sender.send({ from: "a", to: "b", content: "m3" }, { allowUnknown: true }),
    ).rejects.toThrow(MailboxFullError);

    const many = await transport();
    for (let i = 0; i < MAX_IN_FLIGHT + 5; i++)
      await many.send({ from: "a", to: "c", content: `n${i}` }, { allowUnknown: true });
    const c = await receiver("c");
    await c.next(MAX_IN_FLIGHT);
    expect(c.got).toHaveLength(MAX_IN_FLIGHT);
    for (const m of c.got.slice(0, 5)) c.t.settle(m.id);
    const all = await c.next(MAX_IN_FLIGHT + 5);
    expect(all.at(-1)?.content).toBe(`n${MAX_IN_FLIGHT + 4}`);
  });

  it("keeps the database private to the user", async () => {
    const t = await transport();
    await t.agents();
    expect((await stat(path.join(dir, "relay.db"))).mode & 0o777).toBe(0o600);
  });
});
