/**
 * JSON Merge Patch (RFC 7386): objects merge recursively, `null` deletes,
 * anything else replaces. Recursion follows the patch only, so it is as deep
 * as the patch (hook answers are depth-checked when decoded). Keys like
 * `__proto__`, `constructor` and `prototype` are plain data: read as own
 * properties only, written as own data properties, no prototype is touched.
 */

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function applyMergePatch(target: unknown, patch: unknown): unknown {
  if (!isPlainObject(patch)) return patch;
  const result: Record<string, unknown> = {};
  if (isPlainObject(target))
    for (const [key, value] of Object.entries(target)) define(result, key, value);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else
      define(
        result,
        key,
        applyMergePatch(Object.hasOwn(result, key) ? result[key] : undefined, value),
      );
  }
  return result;
}

/** Own data property even for keys like `__proto__` (a patch must not change a prototype). */
function define(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}
