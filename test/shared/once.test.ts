import { describe, expect, it } from "vitest";
import { once, onceEach } from "../../source/shared/once.js";

describe("once, onceEach", () => {
  it("once builds at the first call and keeps that value", () => {
    let builds = 0;
    const value = once(() => ({ n: ++builds }));
    expect(builds).toBe(0);
    const first = value();
    expect(value()).toBe(first);
    expect(builds).toBe(1);
  });

  it("onceEach builds each key at its first use, once, and keeps an undefined value too", () => {
    const built: string[] = [];
    const byKey = onceEach((key: string) => {
      built.push(key);
      return key === "none" ? undefined : { key };
    });
    expect(built).toEqual([]);
    const a = byKey("a");
    expect(byKey("a")).toBe(a);
    expect(byKey("b")).toEqual({ key: "b" });
    expect(byKey("none")).toBeUndefined();
    expect(byKey("none")).toBeUndefined();
    expect(built).toEqual(["a", "b", "none"]);
  });
});
