/**
 * The pattern scanner (agent-relay's `@namespace:target message`), pure: finds
 * the pattern lines of one assistant message.
 *
 * A pattern is a line whose first non-blank characters are `@`, a namespace
 * (a letter, then up to 63 letters, digits, `_` or `-`), `:`, a target (no
 * blanks, at most MAX_TARGET_CHARS) and, after blanks, the message (the rest
 * of the line, trimmed; may be empty: `@memory:list`). Not patterns: lines in
 * fenced code blocks (``` or ~~~, as CommonMark opens and closes them), lines
 * that start inside inline code (a backtick before the `@`), and lines that
 * start with `\@` (the escape). At most `maxPatterns` per message; lines past
 * `maxLineChars` are not read.
 */

interface PatternMatch {
  namespace: string;
  target: string;
  message: string;
  /** 1-based line number in the message. */
  line: number;
}

export interface ScanOptions {
  /** Patterns read per message (default 20); the rest are counted in `skipped`. */
  maxPatterns?: number;
  /** Longer lines are not patterns (default 10,000 characters). */
  maxLineChars?: number;
}

export interface ScanResult {
  patterns: PatternMatch[];
  /** Pattern lines past `maxPatterns`, not read. */
  skipped: number;
}

const DEFAULT_MAX_PATTERNS = 20;
const DEFAULT_MAX_LINE_CHARS = 10_000;

const PATTERN_LINE = /^[ \t]*@([A-Za-z][A-Za-z0-9_-]{0,63}):(\S{1,200})(?:[ \t]+(.*))?$/;
const FENCE = /^[ ]{0,3}(`{3,}|~{3,})(.*)$/;

/** The fence a line opens or closes, if it is one. */
export function fenceOf(line: string): { char: string; length: number; info: string } | undefined {
  const found = FENCE.exec(line);
  if (found === null) return undefined;
  const run = found[1] as string;
  return { char: run[0] as string, length: run.length, info: (found[2] ?? "").trim() };
}

export function scanPatterns(text: string, options: ScanOptions = {}): ScanResult {
  const maxPatterns = options.maxPatterns ?? DEFAULT_MAX_PATTERNS;
  const maxLineChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  const patterns: PatternMatch[] = [];
  let skipped = 0;
  let open: { char: string; length: number } | undefined;
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    const raw = text.slice(start, stop > start && text[stop - 1] === "\r" ? stop - 1 : stop);
    start = stop + 1;
    const fence = raw.length <= maxLineChars ? fenceOf(raw) : undefined;
    if (open !== undefined) {
      // A closing fence: the same character, at least as long, nothing after it.
      if (fence && fence.char === open.char && fence.length >= open.length && fence.info === "")
        open = undefined;
      continue;
    }
    if (fence !== undefined && !(fence.char === "`" && fence.info.includes("`"))) {
      open = { char: fence.char, length: fence.length };
      continue;
    }
    if (raw.length > maxLineChars) continue;
    const found = PATTERN_LINE.exec(raw);
    if (found === null) continue;
    if (patterns.length >= maxPatterns) {
      skipped++;
      continue;
    }
    patterns.push({
      namespace: found[1] as string,
      target: found[2] as string,
      message: (found[3] ?? "").trim(),
      line,
    });
  }
  return { patterns, skipped };
}
