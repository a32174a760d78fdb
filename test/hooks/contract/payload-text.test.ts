/**
 * The stdin text of each dialect is what its home system writes (hooks.md §3):
 * Python's json.dumps for Agent Hooks, Claude Code's own for the acai dialect.
 * The expected strings were produced by the real programs (Python 3's
 * `json.dumps(v)`; Claude Code 2.1.197 piping a PreToolUse payload to a
 * command hook) and are pasted here literally.
 */
import { describe, expect, it } from "vitest";
import {
  payloadText,
  payloadTexts,
  pythonJsonDumps,
} from "../../../source/hooks/contract/payload-text.js";
import { requestLine } from "../../../source/hooks/run/persistent/protocol.js";

const value = {
  event: "before_tool",
  tool_input: {
    command: "mkfs.ext4 /dev/sda1",
    description: 'héllo ☃ 😀 \u2028 \u007f \u0001 \t "q" \\ /',
  },
  n: [1, 2.5, -3, true, false, null],
  e: {},
  a: [],
  k: "a:b, c",
};

/** `python3 -c 'import json; print(json.dumps(v))'` for the same value. */
const PYTHON =
  '{"event": "before_tool", "tool_input": {"command": "mkfs.ext4 /dev/sda1", "description": "h\\u00e9llo \\u2603 \\ud83d\\ude00 \\u2028 \\u007f \\u0001 \\t \\"q\\" \\\\ /"}, "n": [1, 2.5, -3, true, false, null], "e": {}, "a": [], "k": "a:b, c"}';

describe("pythonJsonDumps", () => {
  it("writes what Python's json.dumps writes: spaced separators, ASCII escapes, strings untouched", () => {
    expect(pythonJsonDumps(value)).toBe(PYTHON);
    expect(JSON.parse(PYTHON)).toEqual(value);
  });

  it("leaves separators inside strings alone, also after escaped quotes and backslashes", () => {
    const tricky = { 'a\\",:': '\\",{"x":1}', b: ["\\", ","] };
    const text = pythonJsonDumps(tricky);
    expect(text).toBe('{"a\\\\\\",:": "\\\\\\",{\\"x\\":1}", "b": ["\\\\", ","]}');
    expect(JSON.parse(text ?? "")).toEqual(tricky);
  });

  it("escapes lone surrogates as Python does and keeps the text parseable", () => {
    expect(pythonJsonDumps({ s: "\ud800x" })).toBe('{"s": "\\ud800x"}');
  });

  it("throws on a payload JSON cannot hold, as JSON.stringify does", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => pythonJsonDumps(cyclic)).toThrow();
  });
});

describe("payloadText", () => {
  it("gives the Agent Hooks dialect the text the spec's example guard greps", () => {
    const text = payloadText(value, "agenthooks");
    expect(text).toBe(`${PYTHON}\n`);
    // scripts/run.sh (spec §10.3): grep -o '"command": "[^"]*"' | head -1 | cut -d'"' -f4
    const found = /"command": "[^"]*"/.exec(text)?.[0].split('"')[3];
    expect(found).toBe("mkfs.ext4 /dev/sda1");
  });

  it("gives the acai dialect the text Claude Code writes: compact, UTF-8 as is, a newline", () => {
    // What Claude Code 2.1.197 sent a PreToolUse command hook (ids shortened).
    const claude =
      '{"session_id":"s1","transcript_path":"/t/s1.jsonl","cwd":"/p","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo \'héllo ☃ 😀\' \\"q\\" \\\\ tab\\there","description":"Say hello"},"tool_use_id":"toolu_1"}\n';
    expect(payloadText(JSON.parse(claude), "acai")).toBe(claude);
  });
});

describe("a persistent hook's request line", () => {
  it("is the payload in its dialect's text with the id first, on one line", () => {
    const payload = { event: "before_tool", tool_input: { command: "ls ☃\n" } };
    expect(requestLine(7, payload, "acai")).toBe(
      '{"id":7,"event":"before_tool","tool_input":{"command":"ls ☃\\n"}}\n',
    );
    expect(requestLine(7, payload, "agenthooks")).toBe(
      '{"id": 7, "event": "before_tool", "tool_input": {"command": "ls \\u2603\\n"}}\n',
    );
  });
});

describe("payloadTexts", () => {
  it("gives each dialect's text, serializing one payload object once per dialect", () => {
    const textOf = payloadTexts();
    const payload = { ...value };
    expect(textOf(payload, "acai")).toBe(payloadText(value, "acai"));
    expect(textOf(payload, "agenthooks")).toBe(payloadText(value, "agenthooks"));
    let reads = 0;
    const counted = {
      get event() {
        reads++;
        return "before_tool";
      },
    };
    const first = textOf(counted, "acai");
    expect(textOf(counted, "acai")).toBe(first);
    expect(reads).toBe(1);
    expect(textOf(counted, "agenthooks")).toBe('{"event": "before_tool"}\n');
    expect(reads).toBe(2);
  });

  it("serializes a new payload object (a hook changed the values) anew, and throws as payloadText does", () => {
    const textOf = payloadTexts();
    expect(textOf({ command: "ls" }, "acai")).toBe('{"command":"ls"}\n');
    expect(textOf({ command: "rm -rf /" }, "acai")).toBe('{"command":"rm -rf /"}\n');
    const deep: Record<string, unknown> = {};
    let at = deep;
    for (let i = 0; i < 20_000; i++) {
      const inner: Record<string, unknown> = {};
      at.a = inner;
      at = inner;
    }
    expect(() => textOf(deep, "acai")).toThrow();
    expect(() => textOf(deep, "acai")).toThrow();
  });
});
