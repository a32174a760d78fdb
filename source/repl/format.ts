/** Small text helpers for the REPL views. Pure, so they are easy to test. */

import { chunkToWidth, sliceToWidth, textWidth } from "./text-width.js";

export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return "0ms";
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return `${minutes}m${String(seconds).padStart(2, "0")}s`;
}

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatClock(at: number): string {
  const d = new Date(at);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Cuts to `max` columns on one line, marking the cut. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  if (textWidth(flat) <= max) return flat;
  return `${sliceToWidth(flat, Math.max(0, max - 1))}…`;
}

function field(input: Record<string, unknown>, names: string[]): string | undefined {
  for (const name of names) {
    const value = input[name];
    if (typeof value === "string" && value) return value;
  }
  return undefined;
}

/** What a tool call is about, in a few words: the command, the path, the pattern. */
export function summarizeToolInput(toolName: string, input: unknown, max = 60): string {
  if (input && typeof input === "object" && !Array.isArray(input)) {
    const record = input as Record<string, unknown>;
    const main = field(record, [
      "command",
      "file_path",
      "path",
      "pattern",
      "url",
      "query",
      // Task: its short description rather than its long prompt.
      "description",
      "prompt",
    ]);
    if (main !== undefined) {
      const extra = toolName === "Grep" ? field(record, ["path", "glob"]) : undefined;
      return oneLine(extra && extra !== main ? `${main} in ${extra}` : main, max);
    }
  }
  let json: string;
  try {
    json = JSON.stringify(input) ?? "";
  } catch {
    json = String(input);
  }
  return oneLine(json, max);
}

export interface Excerpt {
  lines: string[];
  /** Lines left out. */
  hidden: number;
}

/** The first `count` lines of a tool output, each cut to `width`. */
export function firstLines(text: string, count: number, width: number): Excerpt {
  const all = text.replace(/\s+$/, "").split("\n");
  if (all.length === 1 && all[0] === "") return { lines: [], hidden: 0 };
  const lines = all.slice(0, count).map((line) => oneLine(line, width));
  return { lines, hidden: Math.max(0, all.length - count) };
}

/** The model as the status line names it: a replay file by its file name only. */
export function modelLabel(model: string): string {
  if (!model.startsWith("replay:")) return model;
  const file = model.slice("replay:".length);
  return `replay:${file.slice(file.lastIndexOf("/") + 1) || file}`;
}

/**
 * Word-wraps plain text to `width` columns. Ink's own wrap keeps the space it
 * breaks at, so wrapped rows start with a blank; here the break eats it. Each
 * line keeps its leading indent on its first row; words longer than a row are
 * cut. Counts terminal columns (text-width.ts): a wide character takes two.
 */
export function wrapWords(text: string, width: number): string {
  const w = Math.max(1, Math.floor(width));
  return text
    .split("\n")
    .map((line) => wrapLine(line, w))
    .join("\n");
}

function wrapLine(line: string, w: number): string {
  if (textWidth(line) <= w) return line;
  const rows: string[] = [];
  let row = "";
  for (const [, space = "", word = ""] of line.matchAll(/(\s*)(\S+)/g)) {
    const lead = row === "" && rows.length === 0 ? space : row === "" ? "" : space;
    if (textWidth(row) + textWidth(lead) + textWidth(word) <= w) {
      row += lead + word;
      continue;
    }
    if (row.trim() !== "") rows.push(row);
    const pieces = chunkToWidth(word, w);
    row = pieces.pop() ?? "";
    rows.push(...pieces);
  }
  if (row !== "") rows.push(row);
  return rows.join("\n");
}

/** An open fenced code block: its fence (``` or ~~~, at least that long closes it) and language. */
export interface Fence {
  marker: string;
  lang: string;
}

const FENCE_OPEN = /^\s*(`{3,}|~{3,})\s*([^\s`]*)[^`]*$/;
const FENCE_CLOSE = /^\s*(`{3,}|~{3,})\s*$/;

/** The fence line `line` opens, when outside a code block. */
export function fenceOpens(line: string): Fence | undefined {
  const match = FENCE_OPEN.exec(line);
  if (!match?.[1]) return undefined;
  return { marker: match[1], lang: match[2] ?? "" };
}

/** Whether `line` closes the code block `fence` opened. */
export function fenceCloses(line: string, fence: Fence): boolean {
  const match = FENCE_CLOSE.exec(line);
  const marker = match?.[1];
  return (
    marker !== undefined && marker[0] === fence.marker[0] && marker.length >= fence.marker.length
  );
}

function fenceAfter(line: string, fence: Fence | undefined): Fence | undefined {
  if (fence) return fenceCloses(line, fence) ? undefined : fence;
  return fenceOpens(line);
}

export interface MarkdownSplit {
  /** Finished lines that can be rendered for good (undefined: none yet). */
  done: string | undefined;
  /** What stays live: the open line, and a table still growing. */
  rest: string;
  /** The code block open where `rest` starts. */
  restFence: Fence | undefined;
}

/** A table still streaming stays live (its columns depend on every row), up to this many lines. */
const MAX_LIVE_TABLE_LINES = 40;

/**
 * Splits streamed Markdown into finished lines and the live part. Lines are
 * finished one by one (inside a code block too: `restFence` carries the open
 * block over), except a trailing run of table-looking lines outside a code
 * block, which stays live until the table ends, so it is laid out whole.
 */
export function splitFinishedMarkdown(text: string, fence: Fence | undefined): MarkdownSplit {
  const cut = text.lastIndexOf("\n");
  if (cut === -1) return { done: undefined, rest: text, restFence: fence };
  const lines = text.slice(0, cut).split("\n");
  const before: (Fence | undefined)[] = [];
  let state = fence;
  for (const line of lines) {
    before.push(state);
    state = fenceAfter(line, state);
  }
  let keep = lines.length;
  while (
    keep > 0 &&
    lines.length - keep < MAX_LIVE_TABLE_LINES &&
    before[keep - 1] === undefined &&
    fenceOpens(lines[keep - 1] ?? "") === undefined &&
    (lines[keep - 1] ?? "").includes("|")
  )
    keep--;
  if (keep === lines.length)
    return { done: text.slice(0, cut), rest: text.slice(cut + 1), restFence: state };
  const rest = [...lines.slice(keep), text.slice(cut + 1)].join("\n");
  if (keep === 0) return { done: undefined, rest, restFence: fence };
  return { done: lines.slice(0, keep).join("\n"), rest, restFence: before[keep] };
}
