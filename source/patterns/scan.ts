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
function fenceOf(line: string): { char: string; length: number; info: string } | undefined {
  const found = FENCE.exec(line);
  if (found === null) return undefined;
  const run = found[1] as string;
  return { char: run[0] as string, length: run.length, info: (found[2] ?? "").trim() };
}

/** The fenced code block a line is in (its opening fence), or none. */
export interface Fence {
  char: string;
  length: number;
}

/**
 * The fence state after `line` (a whole line, no newline), as CommonMark
 * opens and closes fenced code: a closing fence has the same character, is
 * at least as long, and nothing follows it; a backtick fence's info may not
 * hold a backtick. The one rule every reader of pattern lines follows (the
 * scanner, the escape, the relay's `@relay:` lines).
 */
export function nextFence(open: Fence | undefined, line: string): Fence | undefined {
  const fence = fenceOf(line);
  if (open !== undefined) {
    const closes =
      fence && fence.char === open.char && fence.length >= open.length && fence.info === "";
    return closes ? undefined : open;
  }
  if (fence !== undefined && !(fence.char === "`" && fence.info.includes("`")))
    return { char: fence.char, length: fence.length };
  return undefined;
}

/**
 * The lines of `text` where a pattern could be: outside fenced code blocks,
 * fences themselves left out, a trailing `\r` removed, with their 1-based
 * line numbers. Lines past `maxLineChars` are yielded too (the caller skips
 * them) but are never read as a fence.
 */
export function* proseLines(
  text: string,
  maxLineChars = DEFAULT_MAX_LINE_CHARS,
): Generator<{ raw: string; line: number }, void, undefined> {
  let open: Fence | undefined;
  let start = 0;
  for (let line = 1; start <= text.length; line++) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    const raw = text.slice(start, stop > start && text[stop - 1] === "\r" ? stop - 1 : stop);
    start = stop + 1;
    const wasOpen = open;
    if (raw.length <= maxLineChars) open = nextFence(open, raw);
    // Inside a block, or the fence that opens one: not prose.
    if (wasOpen !== undefined || open !== undefined) continue;
    yield { raw, line };
  }
}

export function scanPatterns(text: string, options: ScanOptions = {}): ScanResult {
  const maxPatterns = options.maxPatterns ?? DEFAULT_MAX_PATTERNS;
  const maxLineChars = options.maxLineChars ?? DEFAULT_MAX_LINE_CHARS;
  const patterns: PatternMatch[] = [];
  let skipped = 0;
  for (const { raw, line } of proseLines(text, maxLineChars)) {
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
