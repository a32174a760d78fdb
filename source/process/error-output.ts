/**
 * The one line of a child's error output worth showing when there is room for
 * one line only (a hook or tool that failed to describe itself or to run).
 *
 * The first line is often useless: Node prints the internal file that threw
 * (`node:internal/modules/esm/get_format:189`) and a code excerpt before the
 * error, Python prints `Traceback (most recent call last):` and frames. So:
 * the first line that states an error (`TypeError [ERR_…]: …`, `Error: …`,
 * `ValueError: …`, `error: …`), else the first line that is not a stack frame
 * or other noise, else the first non-empty line.
 */

/** `TypeError [ERR_UNKNOWN_FILE_EXTENSION]: …`, `Error: …`, `json.decoder.JSONDecodeError: …`, `error: …`, `fatal: …` */
const ERROR_LINE =
  /^(?:[\w.$]*(?:Error|Exception)(?:\s*\[[\w-]+\])?|error(?:\[[\w-]+\])?|fatal|panic)\s*:\s*\S/i;
/** An `ERR_…` code anywhere (Node's errors without a class prefix). */
const ERROR_CODE = /\bERR_[A-Z][A-Z0-9_]+\b/;

const NOISE: readonly RegExp[] = [
  /^at\s/, // JS stack frame
  /^node:internal\//, // where Node threw
  /^node:[\w/]+:\d+$/,
  /^file:\/\/\S+:\d+$/, // `file:///x.mjs:3` header of an uncaught throw
  /^\/\S+:\d+$/, // `/abs/path.js:3` header
  /^[\s^~]+$/, // caret markers under a code excerpt
  /^Traceback \(most recent call last\):$/, // Python
  /^File ".*", line \d+/, // Python frame
  /^Node\.js v\d/, // Node's version footer
  /^[{}[\]]$/, // error object dumps
  /^(?:code|errno|syscall|path):/, // their fields
  /^Warning: /, // Node warnings before the real error
  /^\(Use `node --trace-\w+/,
  /^\(node:\d+\)/,
];

const DEFAULT_MAX_CHARS = 300;

function clip(line: string, max: number): string {
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** The most meaningful line of `text` (trimmed, at most `maxChars`), or "" when there is none. */
export function meaningfulErrorLine(text: string, maxChars = DEFAULT_MAX_CHARS): string {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  const chosen =
    lines.find((line) => ERROR_LINE.test(line)) ??
    lines.find((line) => ERROR_CODE.test(line) && !NOISE.some((noise) => noise.test(line))) ??
    lines.find((line) => !NOISE.some((noise) => noise.test(line))) ??
    lines[0] ??
    "";
  return clip(chosen, maxChars);
}
