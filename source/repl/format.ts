/** Small text helpers for the REPL views. Pure, so they are easy to test. */

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

/** Cuts to `max` characters on one line, marking the cut. */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ⏎ ").trim();
  if (flat.length <= max) return flat;
  return `${flat.slice(0, Math.max(0, max - 1))}…`;
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

/** Splits streamed text into finished lines and the open tail. */
export function splitFinishedLines(text: string): { done: string | undefined; rest: string } {
  const cut = text.lastIndexOf("\n");
  if (cut === -1) return { done: undefined, rest: text };
  return { done: text.slice(0, cut), rest: text.slice(cut + 1) };
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
 * cut. Counts UTF-16 units, so wide characters may still need ink's wrap.
 */
export function wrapWords(text: string, width: number): string {
  const w = Math.max(1, Math.floor(width));
  return text
    .split("\n")
    .map((line) => wrapLine(line, w))
    .join("\n");
}

function wrapLine(line: string, w: number): string {
  if (line.length <= w) return line;
  const rows: string[] = [];
  let row = "";
  for (const [, space = "", word = ""] of line.matchAll(/(\s*)(\S+)/g)) {
    const lead = row === "" && rows.length === 0 ? space : row === "" ? "" : space;
    if (row.length + lead.length + word.length <= w) {
      row += lead + word;
      continue;
    }
    if (row.trim() !== "") rows.push(row);
    row = "";
    let rest = word;
    while (rest.length > w) {
      rows.push(rest.slice(0, w));
      rest = rest.slice(w);
    }
    row = rest;
  }
  if (row !== "") rows.push(row);
  return rows.join("\n");
}
