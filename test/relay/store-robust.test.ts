/**
 * Hand-corrupted rows in the embedded store: each is skipped, moved to the
 * quarantine table and reported once; the other messages (also those queued
 * before it) and the agents list keep working. And a store others can write
 * is refused.
 */
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type AgentRecord, RelayStore } from "../../source/relay/store.js";
import { UnsafeStoreError } from "../../source/relay/store-files.js";

let dir: string;
let problems: string[];
const stores: RelayStore[] = [];

beforeEach(async () => {
  dir = path.join(await mkdtemp(path.join(os.tmpdir(), "acai-relay-robust-")), "relay");
  problems = [];
});
afterEach(async () => {
  for (const s of stores.splice(0)) s.close();
  await rm(path.dirname(dir), { recursive: true, force: true });
});

async function open(): Promise<RelayStore> {
  const store = await RelayStore.open({ dir, onProblem: (line) => problems.push(line) });
  stores.push(store);
  return store;
}

function raw(sql: string, ...params: (string | number | Uint8Array | null)[]): void {
  const db = new DatabaseSync(path.join(dir, "relay.db"));
  try {
    db.prepare(sql).run(...params);
  } finally {
    db.close();
  }
}

function quarantined(): { from_table: string; reason: string; row: string }[] {
  const db = new DatabaseSync(path.join(dir, "relay.db"));
  try {
    return db.prepare("SELECT from_table, reason, row FROM quarantine ORDER BY id").all() as never;
  } finally {
    db.close();
  }
}

function message(id: string, to: string, content: string) {
  return { id, from: "alice", to, content, broadcast: false, sentAt: Date.now() };
}

const me: AgentRecord = {
  name: "bob",
  sessionId: "s-bob",
  pid: process.pid,
  host: os.hostname(),
  cwd: "/p",
  startedAt: 1,
  listening: true,
};

describe("malformed message rows", () => {
  it.each([
    ["a body that is not JSON", "{not json"],
    ["a body missing fields", JSON.stringify({ id: "x", to: "bob" })],
    ["content past the cap", JSON.stringify(message("big", "bob", "x".repeat(6000)))],
    ["a body addressed to someone else", JSON.stringify(message("other", "carol", "hi"))],
  ])(
    "%s is skipped, quarantined and reported once; messages before and after it arrive",
    async (_what, body) => {
      const store = await open();
      store.enqueue([message("m1", "bob", "before")]);
      raw(
        "INSERT INTO messages (id, recipient, sent_at, body) VALUES (?, ?, ?, ?)",
        "bad",
        "bob",
        Date.now(),
        body,
      );
      store.enqueue([message("m3", "bob", "after")]);
      expect(store.pending("bob", 0, 100).map((m) => m.message.content)).toEqual([
        "before",
        "after",
      ]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(
        "a malformed message row (seq 2) was skipped and moved to its quarantine table",
      );
      expect(problems[0]).toContain(path.join(dir, "relay.db"));
      expect(store.pending("bob", 0, 100)).toHaveLength(2);
      expect(problems).toHaveLength(1);
      const moved = quarantined();
      expect(moved).toHaveLength(1);
      expect(moved[0]?.from_table).toBe("messages");
      expect(moved[0]?.row).toContain('"seq":2');
    },
  );

  it("a blob body (not text) does not throw out the whole batch", async () => {
    const store = await open();
    store.enqueue([message("m1", "bob", "before")]);
    raw(
      "INSERT INTO messages (id, recipient, sent_at, body) VALUES (?, ?, ?, ?)",
      "blob",
      "bob",
      Date.now(),
      new Uint8Array([1, 2, 3]),
    );
    expect(store.pending("bob", 0, 100).map((m) => m.message.content)).toEqual(["before"]);
    expect(problems[0]).toContain("body:");
    expect(quarantined()[0]?.row).toContain("<3 bytes>");
  });
});

describe("malformed agents rows", () => {
  it.each([
    ["a pid that is text", ["eve", "s", "not-a-pid", "h", "/c", 1, 0]],
    ["a name with a terminal escape", ["\u001b[31mred", "s", 1, "h", "/c", 1, 0]],
    ["a listening flag of 7", ["eve", "s", 1, "h", "/c", 1, 7]],
  ])(
    "%s: running() lists the others, reports it in one line, quarantines it",
    async (_what, values) => {
      const store = await open();
      store.register(me);
      raw("INSERT INTO agents VALUES (?, ?, ?, ?, ?, ?, ?)", ...(values as (string | number)[]));
      expect(store.running().map((a) => a.name)).toEqual(["bob"]);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(/a malformed agents row \(name .*\) was skipped/);
      expect(problems[0]).not.toContain("\n");
      expect(problems[0]).not.toContain("ZodError");
      expect(store.running().map((a) => a.name)).toEqual(["bob"]);
      expect(problems).toHaveLength(1);
      expect(quarantined()[0]?.from_table).toBe("agents");
    },
  );

  it("a malformed row holding a name does not keep an agent from taking it", async () => {
    const store = await open();
    raw("INSERT INTO agents VALUES (?, ?, ?, ?, ?, ?, ?)", "bob", "s", "x", "h", "/c", 1, 0);
    expect(store.register(me)).toBeUndefined();
    expect(store.running().map((a) => a.sessionId)).toEqual(["s-bob"]);
    expect(problems).toHaveLength(1);
  });
});

describe("a store others could write", () => {
  it("refuses a store file writable by group or others, naming the file and the fix", async () => {
    (await open()).close();
    await chmod(path.join(dir, "relay.db"), 0o666);
    const error = await RelayStore.open({ dir }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsafeStoreError);
    expect(String((error as Error).message)).toContain(`chmod 600 ${path.join(dir, "relay.db")}`);
    expect(String((error as Error).message)).toContain("can be written by other users (mode 0666)");
  });

  it("refuses a folder writable by others", async () => {
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o777);
    await expect(RelayStore.open({ dir })).rejects.toThrow(`chmod 700 ${dir}`);
  });

  it("refuses a store that belongs to another user", async () => {
    (await open()).close();
    const uid = (process.getuid?.() ?? 0) + 1;
    await expect(RelayStore.open({ dir, owner: { uid } })).rejects.toThrow(
      /belongs to another user/,
    );
  });

  it("refuses a store file that is a symbolic link", async () => {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const elsewhere = path.join(path.dirname(dir), "elsewhere.db");
    await writeFile(elsewhere, "");
    await symlink(elsewhere, path.join(dir, "relay.db"));
    await expect(RelayStore.open({ dir })).rejects.toThrow(/is a symbolic link/);
  });
});
