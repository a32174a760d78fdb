import { statSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ftsQuery } from "../../source/memory/fts-query.js";
import { memoryNamespace } from "../../source/memory/namespace.js";
import { MAX_MEMORY_CHARS, MemoryStore } from "../../source/memory/store.js";

let dir: string;
let store: MemoryStore;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-memory-"));
  store = await MemoryStore.open(path.join(dir, "home", "memory.db"), () => Date.UTC(2026, 10, 22));
});
afterEach(async () => {
  store.close();
  await rm(dir, { recursive: true, force: true });
});

const here = { kind: "project", project: "/p/a" } as const;

describe("MemoryStore", () => {
  it("is the user's file alone", () => {
    expect(statSync(path.join(dir, "home", "memory.db")).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dir, "home")).mode & 0o777).toBe(0o700);
  });

  it("saves, searches best first, lists recent first, forgets", () => {
    const a = store.save({ content: "The build uses pnpm", project: "/p/a" });
    store.save({ content: "Deploys go through staging first", project: "/p/a" });
    const c = store.save({ content: "User prefers dark mode", project: null });
    expect(store.search("build pnpm", here).map((m) => m.id)).toEqual([a.id]);
    expect(store.search("dark", here).map((m) => m.id)).toEqual([c.id]);
    expect(store.list(here).map((m) => m.content)).toEqual([
      "User prefers dark mode",
      "Deploys go through staging first",
      "The build uses pnpm",
    ]);
    expect(store.forget(a.id, here)).toBe(true);
    expect(store.forget(a.id, here)).toBe(false);
    expect(store.search("pnpm", here)).toEqual([]);
    expect(a.createdAt).toBe("2026-11-22T00:00:00.000Z");
  });

  it("lists the newest of a project and the shared ones merged, newest first, up to the limit", () => {
    const order = ["/p/a", null, "/p/b", "/p/a", null, "/p/a", "/p/b", null] as const;
    order.forEach((project, i) => {
      store.save({ content: `m${i} ${project ?? "shared"}`, project });
    });
    expect(store.list(here, 4).map((m) => m.content)).toEqual([
      "m7 shared",
      "m5 /p/a",
      "m4 shared",
      "m3 /p/a",
    ]);
    expect(store.list(here, 100).map((m) => m.content)).toEqual([
      "m7 shared",
      "m5 /p/a",
      "m4 shared",
      "m3 /p/a",
      "m1 shared",
      "m0 /p/a",
    ]);
    expect(store.list({ kind: "all" }, 2).map((m) => m.content)).toEqual(["m7 shared", "m6 /p/b"]);
  });

  it("keeps projects apart; user-wide memories are seen everywhere", () => {
    store.save({ content: "alpha secret", project: "/p/a" });
    store.save({ content: "beta secret", project: "/p/b" });
    store.save({ content: "gamma secret", project: null });
    const inA = store
      .search("secret", here)
      .map((m) => m.content)
      .sort();
    expect(inA).toEqual(["alpha secret", "gamma secret"]);
    expect(store.search("secret", { kind: "all" })).toHaveLength(3);
    const other = store.list({ kind: "project", project: "/p/b" });
    expect(other.map((m) => m.content).sort()).toEqual(["beta secret", "gamma secret"]);
    const b = other.find((m) => m.content === "beta secret");
    expect(store.forget(b?.id ?? 0, here)).toBe(false);
  });

  it("hostile queries and content are data", () => {
    store.save({ content: 'x"); DROP TABLE memories; -- NEAR(a b) * "', project: "/p/a" });
    for (const query of [
      '"',
      "*",
      "NEAR(",
      "a OR",
      "content:x",
      ")(",
      "-x",
      "AND",
      "\u0000",
      "' OR 1=1 --",
    ]) {
      expect(() => store.search(query, here)).not.toThrow();
    }
    expect(store.search("DROP TABLE", here)).toHaveLength(1);
    expect(store.count({ kind: "all" })).toBe(1);
  });

  it("bounds a memory's size and a call's results", () => {
    expect(() => store.save({ content: "x".repeat(MAX_MEMORY_CHARS + 1), project: null })).toThrow(
      /at most 10000 characters/,
    );
    expect(() => store.save({ content: "   ", project: null })).toThrow(/empty/);
    store.transaction(() => {
      for (let i = 0; i < 80; i++) store.save({ content: `note ${i}`, project: null });
    });
    expect(store.list(here, 1000)).toHaveLength(50);
    expect(store.search("note", here, 1000)).toHaveLength(50);
  });

  it("two stores on one file see each other's writes (concurrent sessions)", async () => {
    const other = await MemoryStore.open(path.join(dir, "home", "memory.db"));
    try {
      other.save({ content: "from the other session", project: "/p/a" });
      expect(store.search("other session", here)).toHaveLength(1);
    } finally {
      other.close();
    }
  });
});

describe("ftsQuery", () => {
  it("quotes each word, drops syntax, bounds the words", () => {
    expect(ftsQuery('build "tool" NEAR(x*)')).toBe('"build" OR "tool" OR "near" OR "x"');
    expect(ftsQuery("  -*()  ")).toBeUndefined();
    expect(
      ftsQuery(Array.from({ length: 100 }, (_, i) => `w${i}`).join(" "))?.split(" OR "),
    ).toHaveLength(32);
  });
});

describe("the @memory: namespace", () => {
  const call = (target: string, message: string) => ({
    namespace: "memory",
    target,
    message,
    sessionId: "s1",
  });
  const ns = () =>
    memoryNamespace({ openStore: async () => store, projectDir: "/p/a", scope: "project" });
  const signal = new AbortController().signal;

  it("answers save, search, forget, list and unknown actions as text for the agent", async () => {
    const memory = ns();
    expect(
      await memory.handle(call("save", "Auth tokens live in httpOnly cookies"), signal),
    ).toEqual({
      context: "[memory] saved as #1",
    });
    const found = await memory.handle(call("search", "auth cookies"), signal);
    expect(found.context).toMatch(
      /1 memory matches "auth cookies":\n- #1 \(2026-11-22\) Auth tokens/,
    );
    expect((await memory.handle(call("list", ""), signal)).context).toContain("#1");
    expect((await memory.handle(call("forget", "#1"), signal)).context).toBe(
      "[memory] #1 forgotten",
    );
    expect((await memory.handle(call("forget", "x"), signal)).context).toMatch(/needs a memory id/);
    expect((await memory.handle(call("search", "auth"), signal)).context).toMatch(
      /no memory matches/,
    );
    expect((await memory.handle(call("dance", ""), signal)).context).toMatch(
      /unknown action "dance"/,
    );
    expect((await memory.handle(call("save", ""), signal)).context).toMatch(/empty/);
  });

  it("a store that cannot open is a reply and a warning", async () => {
    const memory = memoryNamespace({
      openStore: async () => {
        throw new Error("disk full");
      },
      projectDir: "/p/a",
      scope: "user",
    });
    const reply = await memory.handle(call("list", ""), signal);
    expect(reply.context).toMatch(/unavailable/);
    expect(reply.warning).toMatch(/disk full/);
  });
});
