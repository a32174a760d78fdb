import { describe, expect, it } from "vitest";
import { bashTool } from "../../source/tools/builtin/bash.js";
import { validateOnce } from "../../source/tools/validated-input.js";

describe("validateOnce", () => {
  it("checks an input once: the value it returned passes again without a second check", () => {
    let checks = 0;
    const validate = validateOnce((input) => {
      checks++;
      return typeof input === "object" && input !== null
        ? { ok: true, value: { ...input, defaulted: true } }
        : { ok: false, error: "expected an object" };
    });
    const first = validate({ a: 1 });
    expect(first).toEqual({ ok: true, value: { a: 1, defaulted: true } });
    const again = validate(first.ok ? first.value : undefined);
    expect(again.ok && again.value).toBe(first.ok && first.value);
    expect(checks).toBe(1);
    // An equal but different object is checked; a failure is never remembered.
    validate({ a: 1, defaulted: true });
    expect(validate("x")).toEqual({ ok: false, error: "expected an object" });
    expect(validate("x").ok).toBe(false);
    expect(checks).toBe(4);
  });

  it("a built-in tool's validated input is the object execute receives, defaults filled", () => {
    const tool = bashTool();
    const checked = tool.validate({ command: "true" });
    expect(checked.ok).toBe(true);
    expect(tool.validate(checked.ok ? checked.value : undefined)).toEqual(checked);
  });
});
