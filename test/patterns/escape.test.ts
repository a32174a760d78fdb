import { describe, expect, it } from "vitest";
import { createUnescaper, unescapePatterns } from "../../source/patterns/escape.js";
import { scanPatterns } from "../../source/patterns/scan.js";

const SAMPLE = [
  "To write to Alice, I would put:",
  "\\@relay:Alice Check the tests",
  "  \\@memory:save not saved",
  "\\\\@relay:Alice keeps one backslash",
  "a \\@relay:mid-line escape stays",
  "\\@ not a namespace stays",
  "```",
  "\\@relay:Alice inside code stays",
  "```",
  "\\@deploy:staging after the fence",
].join("\n");

const SHOWN = [
  "To write to Alice, I would put:",
  "@relay:Alice Check the tests",
  "  @memory:save not saved",
  "\\@relay:Alice keeps one backslash",
  "a \\@relay:mid-line escape stays",
  "\\@ not a namespace stays",
  "```",
  "\\@relay:Alice inside code stays",
  "```",
  "@deploy:staging after the fence",
].join("\n");

describe("unescapePatterns", () => {
  it("drops one backslash of an escaped pattern at a line start, outside code", () => {
    expect(unescapePatterns(SAMPLE)).toBe(SHOWN);
  });

  it("the escaped lines are not patterns to the scanner", () => {
    expect(scanPatterns(SAMPLE).patterns).toEqual([]);
  });

  it("text without a backslash is returned as is", () => {
    expect(unescapePatterns("@relay:bob hi\nplain")).toBe("@relay:bob hi\nplain");
  });
});

describe("createUnescaper", () => {
  it.each([1, 2, 3, 5, 8, 13, 64])("gives the same text when fed in pieces of %i", (size) => {
    const u = createUnescaper();
    let out = "";
    for (let i = 0; i < SAMPLE.length; i += size) out += u.push(SAMPLE.slice(i, i + size));
    out += u.flush();
    expect(out).toBe(SHOWN);
  });

  it("holds back only a line start that could still be an escape", () => {
    const u = createUnescaper();
    expect(u.push("Hello ")).toBe("Hello ");
    expect(u.push("world\n  \\@rel")).toBe("world\n");
    expect(u.push("ay:bob hi")).toBe("  @relay:bob hi");
    expect(u.push("\n\\@ne")).toBe("\n");
    expect(u.flush()).toBe("\\@ne");
  });
});
