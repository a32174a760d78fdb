/**
 * An `mcp_tool` hook's arguments: its `input` with `${path}` placeholders
 * filled from the payload (`${tool_input.file_path}`, `${session_id}`), as
 * Claude Code does; a string that is one placeholder only takes the value
 * itself (an object stays an object). Without `input`, the payload is the
 * arguments. Pure.
 */

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}/g;
const WHOLE = /^\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z0-9_]+)*)\}$/;
/** Past this depth an input is left as it is (settings are depth-checked already). */
const MAX_DEPTH = 32;

export function mcpToolInput(
  input: Readonly<Record<string, unknown>> | undefined,
  payload: unknown,
): Record<string, unknown> {
  if (input === undefined) {
    return isRecord(payload) ? { ...payload } : { payload };
  }
  return fill(input, payload, 0) as Record<string, unknown>;
}

function fill(value: unknown, payload: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return value;
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole?.[1] !== undefined) return lookup(payload, whole[1]) ?? "";
    return value.replace(PLACEHOLDER, (_, path: string) => textOf(lookup(payload, path)));
  }
  if (Array.isArray(value)) return value.map((item) => fill(item, payload, depth + 1));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Own data keys only: "__proto__" stays a plain key.
      Object.defineProperty(out, key, {
        value: fill(item, payload, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

function lookup(payload: unknown, path: string): unknown {
  let at: unknown = payload;
  for (const key of path.split(".")) {
    if (!isRecord(at) || !Object.hasOwn(at, key)) return undefined;
    at = at[key];
  }
  return at;
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? value : JSON.stringify(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
