/**
 * Nesting limits for JSON and JSON-like values from outside acai (project
 * files, hook answers). Both checks are iterative: a value 100,000 levels deep
 * is measured, not recursed into, so it can be refused before anything that
 * recurses (zod, JSON.stringify, a merge) touches it.
 */

/** Default depth limit for configuration files and hook answers. */
export const MAX_JSON_DEPTH = 64;

/**
 * Whether the JSON text nests `[`/`{` deeper than `maxDepth`, counting only
 * brackets outside strings. Works on any text, valid JSON or not.
 */
export function jsonTextTooDeep(text: string, maxDepth: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (inString) {
      if (ch === 92 /* \ */) i++;
      else if (ch === 34 /* " */) inString = false;
      continue;
    }
    if (ch === 34) inString = true;
    else if (ch === 91 /* [ */ || ch === 123 /* { */) {
      depth++;
      if (depth > maxDepth) return true;
    } else if (ch === 93 /* ] */ || ch === 125 /* } */) depth--;
  }
  return false;
}

/** Whether an already-parsed value (objects and arrays) nests deeper than `maxDepth`. Cycles count as too deep. */
export function valueTooDeep(value: unknown, maxDepth: number = MAX_JSON_DEPTH): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; depth: number };
    if (item.value === null || typeof item.value !== "object") continue;
    if (seen.has(item.value)) return true;
    seen.add(item.value);
    const depth = item.depth + 1;
    if (depth > maxDepth) return true;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) stack.push({ value: child, depth });
  }
  return false;
}
