/**
 * A tool input is checked against the tool's schema once: where the agent
 * first sees it (a model's call) or where a hook replaces it (the hooks'
 * `step`). What passed is remembered by identity, so the agent handing the
 * same object on to `execute` — or a verdict carrying an input the hooks
 * already checked — costs a set lookup, not a second parse. Per tool: nothing
 * global, and an object checked by one tool means nothing to another.
 */
import type { InputValidation } from "./types.js";

export function validateOnce(
  validate: (input: unknown) => InputValidation,
): (input: unknown) => InputValidation {
  const passed = new WeakSet<object>();
  return (input) => {
    if (typeof input === "object" && input !== null && passed.has(input)) {
      return { ok: true, value: input };
    }
    const result = validate(input);
    if (result.ok && typeof result.value === "object" && result.value !== null) {
      passed.add(result.value);
    }
    return result;
  };
}
