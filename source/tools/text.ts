import { isAbsolute, resolve } from "node:path";

/** Characters of tool output the model sees, at most. */
const MODEL_OUTPUT_LIMIT = 30_000;

/**
 * Keeps the head and the tail of a long text (the tail of a build log is often
 * what matters) with a visible marker in between.
 */
export function capForModel(text: string, limit = MODEL_OUTPUT_LIMIT): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit * 0.4);
  const tail = limit - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n\n[... ${omitted} characters truncated ...]\n\n${text.slice(text.length - tail)}`;
}

/** A NUL byte in the first 8 KiB means binary, as git decides it. */
export function looksBinary(buf: Uint8Array): boolean {
  const end = Math.min(buf.length, 8192);
  for (let i = 0; i < end; i++) if (buf[i] === 0) return true;
  return false;
}

export function resolvePath(cwd: string, path: string): string {
  return isAbsolute(path) ? path : resolve(cwd, path);
}

export const MAX_LINE_CHARS = 2000;

/** `cat -n` style: right-aligned 1-based line number, a tab, the line (cut when very long). */
export function numberLine(lineNumber: number, line: string): string {
  const shown =
    line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line truncated]` : line;
  return `${String(lineNumber).padStart(6)}\t${shown}`;
}

export function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

export function plural(n: number, word: string, pluralWord = `${word}s`): string {
  return `${n} ${n === 1 ? word : pluralWord}`;
}
