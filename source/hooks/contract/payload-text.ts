/**
 * The text a spawned hook reads on stdin: its payload serialized the way the
 * dialect's home system writes JSON (hooks.md §3), because hooks grep their
 * stdin.
 *
 * - "acai" (executables, settings hooks: Claude Code's field names): as
 *   Claude Code writes it — `JSON.stringify` (no spaces, non-ASCII as UTF-8,
 *   `/` unescaped) and a newline. Checked against what Claude Code 2.1.197
 *   piped to a command hook (test/hooks/contract/payload-text.test.ts).
 * - "agenthooks" (HOOK.md): as Python's `json.dumps` writes it with its
 *   defaults — `", "` between items, `": "` after keys, and `ensure_ascii`:
 *   every character outside printable ASCII (U+007F and up) as a lowercase
 *   `\uXXXX`, astral characters as their surrogate pair — and a newline. So
 *   the spec's example guard (`grep -o '"command": "[^"]*"'`, spec §10.3)
 *   matches. Control characters are escaped alike by both; numbers are
 *   written as JavaScript writes them (Python would write `1e-07` for
 *   `1e-7`, and cannot be told apart from an integer here).
 *
 * Throws as `JSON.stringify` does (a payload nested too deep); the caller
 * does not start the hook then.
 */
import type { HookDialect } from "./definition.js";

/** A JSON string token, or a structural `,` / `:` (outside strings). */
const TOKEN = /"(?:[^"\\]|\\.)*"|[,:]/g;
/** What `ensure_ascii` escapes that `JSON.stringify` leaves as is. */
const NON_ASCII = /[\u007f-\uffff]/g;

function asciiEscape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** `json.dumps(value)` as Python writes it with its default arguments. */
export function pythonJsonDumps(value: unknown): string | undefined {
  const compact = JSON.stringify(value);
  if (compact === undefined) return undefined;
  return compact.replace(TOKEN, (token) => {
    if (token === ",") return ", ";
    if (token === ":") return ": ";
    return token.replace(NON_ASCII, asciiEscape);
  });
}

export function payloadText(payload: unknown, dialect: HookDialect): string {
  switch (dialect) {
    case "acai":
      return `${JSON.stringify(payload)}\n`;
    case "agenthooks":
      return `${pythonJsonDumps(payload)}\n`;
    default:
      return dialect satisfies never;
  }
}

/**
 * `payloadText` once per payload object and dialect: the hooks of one event
 * get the same payload object while none changed the values
 * (intercept/hook-runs.ts), and payloads are not changed once built, so a
 * chain of command hooks serializes it once, not once per hook. A payload
 * that cannot be serialized throws each time, as `payloadText` does.
 */
export function payloadTexts(): (payload: unknown, dialect: HookDialect) => string {
  const made: Record<HookDialect, WeakMap<object, string>> = {
    acai: new WeakMap(),
    agenthooks: new WeakMap(),
  };
  return (payload, dialect) => {
    if (typeof payload !== "object" || payload === null) return payloadText(payload, dialect);
    let text = made[dialect].get(payload);
    if (text === undefined) {
      text = payloadText(payload, dialect);
      made[dialect].set(payload, text);
    }
    return text;
  };
}
