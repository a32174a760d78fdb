import { describe, expect, it } from "vitest";
import { boundHooksPerEvent } from "../../../source/hooks/discover/max-hooks.js";
import { makeHook } from "../support.js";

describe("boundHooksPerEvent (hookDefaults.maxHooks)", () => {
  it("keeps the first hooks of each event in run order and names the rest in a warning", () => {
    const a = makeHook({ name: "a", events: ["before_tool", "after_tool"] });
    const b = makeHook({ name: "b", events: ["before_tool"] });
    const c = makeHook({ name: "c", events: ["before_tool", "after_tool"] });
    const { hooks, warnings } = boundHooksPerEvent([a, b, c], 2);
    expect(hooks.map((h) => [h.name, h.events])).toEqual([
      ["a", ["before_tool", "after_tool"]],
      ["b", ["before_tool"]],
      ["c", ["after_tool"]],
    ]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /^before_tool has 3 hooks, more than maxHooks \(2\): not loaded for it, last in run order: c \(\/hooks\/c\); raise hookDefaults\.maxHooks/,
      ),
    ]);
  });

  it("drops a hook left with no event, and says nothing when under the bound", () => {
    const hooks = [1, 2, 3].map((i) => makeHook({ name: `h${i}` }));
    expect(boundHooksPerEvent(hooks, 2).hooks.map((h) => h.name)).toEqual(["h1", "h2"]);
    expect(boundHooksPerEvent(hooks.slice(0, 2), 2).warnings).toEqual([]);
  });

  it("lists at most ten names, then counts", () => {
    const hooks = Array.from({ length: 15 }, (_, i) => makeHook({ name: `n${i}` }));
    const [warning] = boundHooksPerEvent(hooks, 1).warnings;
    expect(warning).toContain("n10 (/hooks/n10) and 4 more");
  });
});
