import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Key } from "ink";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseCommand } from "../../source/repl/commands.js";
import { applyKey, type EditorState, editorOf, insertText } from "../../source/repl/editor.js";
import {
  firstLines,
  formatDuration,
  modelLabel,
  summarizeToolInput,
  wrapWords,
} from "../../source/repl/format.js";
import { appendHistory, loadHistory } from "../../source/repl/history.js";
import { PromptQueue } from "../../source/repl/prompt-queue.js";

const NO_KEY: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const key = (k: Partial<Key>): Key => ({ ...NO_KEY, ...k });

function edit(state: EditorState, input: string, k: Partial<Key> = {}): EditorState {
  const r = applyKey(state, input, key(k));
  if (r.kind !== "edit") throw new Error(`expected edit, got ${r.kind}`);
  return r.state;
}

describe("line editor", () => {
  it("types, moves and deletes", () => {
    let s = edit(editorOf(""), "helo");
    s = edit(s, "", { leftArrow: true });
    s = edit(s, "l");
    expect(s).toEqual({ value: "hello", cursor: 4 });
    s = edit(s, "", { backspace: true });
    expect(s.value).toBe("helo");
    s = edit(s, "a", { ctrl: true });
    expect(s.cursor).toBe(0);
    s = edit(s, "", { delete: true });
    expect(s.value).toBe("elo");
    s = edit(editorOf("one two three"), "w", { ctrl: true });
    expect(s.value).toBe("one two ");
    s = edit(editorOf("abc"), "u", { ctrl: true });
    expect(s).toEqual({ value: "", cursor: 0 });
  });

  it("Enter submits; Alt-Enter, Ctrl-J and a trailing backslash insert a newline", () => {
    expect(applyKey(editorOf("hi"), "\r", key({ return: true }))).toEqual({
      kind: "submit",
      value: "hi",
    });
    expect(edit(editorOf("a"), "\r", { return: true, meta: true }).value).toBe("a\n");
    expect(edit(editorOf("a"), "\n").value).toBe("a\n");
    expect(edit(editorOf("a\\"), "\r", { return: true })).toEqual({ value: "a\n", cursor: 2 });
  });

  it("up/down move between lines, and fall through to history at the edges", () => {
    const s: EditorState = { value: "ab\ncd", cursor: 4 };
    const up = edit(s, "", { upArrow: true });
    expect(up.cursor).toBe(1);
    expect(applyKey(up, "", key({ upArrow: true }))).toEqual({ kind: "history", delta: -1 });
    expect(applyKey(s, "", key({ downArrow: true }))).toEqual({ kind: "history", delta: 1 });
  });

  it("pasted text: CRLF normalized, escape sequences and control bytes dropped", () => {
    const s = insertText(editorOf(""), "a\r\nb\u001b[31mc\u0007\td");
    expect(s.value).toBe("a\nbc\td");
  });

  it("control keys it does not know do nothing", () => {
    expect(applyKey(editorOf("x"), "t", key({ ctrl: true })).kind).toBe("none");
    expect(applyKey(editorOf("x"), "", key({ escape: true })).kind).toBe("none");
  });
});

describe("prompt queue", () => {
  it("reports take and wait, delivers in order, ends on close", async () => {
    const log: string[] = [];
    const q = new PromptQueue<string>({
      onTake: (i) => log.push(`take ${i}`),
      onWait: () => log.push("wait"),
    });
    q.push("a");
    const it = q[Symbol.asyncIterator]();
    expect(await it.next()).toEqual({ value: "a", done: false });
    const pending = it.next();
    expect(q.waiting).toBe(true);
    q.push("b");
    expect(await pending).toEqual({ value: "b", done: false });
    const end = it.next();
    q.close();
    expect(await end).toEqual({ value: undefined, done: true });
    expect(q.push("c")).toBe(false);
    expect(log).toEqual(["take a", "wait", "take b", "wait"]);
  });

  it("close(drop) discards queued items", async () => {
    const q = new PromptQueue<string>();
    q.push("a");
    q.close(true);
    expect(await q.next()).toEqual({ value: undefined, done: true });
  });
});

describe("history file", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-hist-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("appends, reloads multi-line prompts as one entry, skips damaged lines, stays bounded", async () => {
    const file = path.join(dir, "sub", "repl-history.jsonl");
    expect(await loadHistory(file)).toEqual([]);
    expect(await appendHistory(file, "first")).toBeUndefined();
    expect(await appendHistory(file, "two\nlines")).toBeUndefined();
    await writeFile(file, `${await readFile(file, "utf8")}not json\n{"nope":1}\n`);
    expect(await loadHistory(file)).toEqual(["first", "two\nlines"]);
    for (let i = 0; i < 7; i++) await appendHistory(file, `p${i}`, { limit: 3 });
    const lines = (await readFile(file, "utf8")).trim().split("\n");
    expect(lines.length).toBeLessThanOrEqual(6);
    expect(await loadHistory(file, 3)).toEqual(["p4", "p5", "p6"]);
  });

  it("reports, never throws, when the file cannot be written", async () => {
    const blocker = path.join(dir, "file");
    await writeFile(blocker, "");
    const error = await appendHistory(path.join(blocker, "h.jsonl"), "x");
    expect(error).toMatch(/could not save prompt history to .*h\.jsonl/);
  });
});

describe("commands and formatting", () => {
  it("parses commands; paths and unknown words with text are prompts", () => {
    expect(parseCommand("/help")).toEqual({ name: "help" });
    expect(parseCommand(" /model  openai:gpt-4o ")).toEqual({
      name: "model",
      spec: "openai:gpt-4o",
    });
    expect(parseCommand("/quit")).toEqual({ name: "exit" });
    expect(parseCommand("/expand 3")).toEqual({ name: "expand", seq: 3 });
    expect(parseCommand("/frobnicate")).toEqual({ name: "unknown", text: "/frobnicate" });
    expect(parseCommand("/usr/bin/env is odd")).toBeUndefined();
    expect(parseCommand("hello /help")).toBeUndefined();
  });

  it("summarizes tool inputs and cuts output", () => {
    expect(summarizeToolInput("Bash", { command: "ls -la\nwc -l" })).toBe("ls -la ⏎ wc -l");
    expect(summarizeToolInput("Read", { file_path: "/a/b.ts" })).toBe("/a/b.ts");
    expect(summarizeToolInput("X", { a: 1 })).toBe('{"a":1}');
    expect(summarizeToolInput("Bash", { command: "x".repeat(100) }, 10)).toBe(`${"x".repeat(9)}…`);
    expect(firstLines("1\n2\n3\n4\n5\n", 3, 80)).toEqual({ lines: ["1", "2", "3"], hidden: 2 });
    expect(firstLines("", 3, 80)).toEqual({ lines: [], hidden: 0 });
    expect(formatDuration(450)).toBe("450ms");
    expect(formatDuration(1500)).toBe("1.5s");
    expect(formatDuration(61_000)).toBe("1m01s");
  });
});

describe("wrapWords", () => {
  it("breaks at spaces without leaving a blank at the start of a row", () => {
    expect(wrapWords("aaaa bbbb cc", 4)).toBe("aaaa\nbbbb\ncc");
    expect(wrapWords("They run as programs on your machine at points of the agent loop.", 36)).toBe(
      "They run as programs on your machine\nat points of the agent loop.",
    );
  });

  it("keeps explicit newlines, short lines and a line's leading indent", () => {
    expect(wrapWords("one\n\n  two", 10)).toBe("one\n\n  two");
    expect(wrapWords("  indented code line", 10)).toBe("  indented\ncode line");
  });

  it("cuts a word longer than a row", () => {
    expect(wrapWords("see /a/very/long/path/name here", 10)).toBe(
      "see\n/a/very/lo\nng/path/na\nme here",
    );
    expect(wrapWords("x", 0)).toBe("x");
  });
});

describe("modelLabel", () => {
  it("names a replay model by its file name; other models as they are", () => {
    expect(modelLabel("replay:examples/replay/demo.json")).toBe("replay:demo.json");
    expect(modelLabel("gpt-5.1")).toBe("gpt-5.1");
    expect(modelLabel("llama3.1:8b")).toBe("llama3.1:8b");
  });
});
