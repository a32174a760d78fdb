import { describe, expect, it } from "vitest";
import { scanPatterns } from "../../source/patterns/scan.js";

const found = (text: string) =>
  scanPatterns(text).patterns.map(({ namespace, target, message }) => [namespace, target, message]);

describe("scanPatterns", () => {
  it("reads @namespace:target message lines, message optional", () => {
    expect(
      found(
        "Done.\n@memory:save User prefers dark mode\n  @deploy:staging  Release v1.2.3 \n@memory:list\n@relay:* Status update",
      ),
    ).toEqual([
      ["memory", "save", "User prefers dark mode"],
      ["deploy", "staging", "Release v1.2.3"],
      ["memory", "list", ""],
      ["relay", "*", "Status update"],
    ]);
  });

  it("gives line numbers", () => {
    expect(scanPatterns("a\r\nb\r\n@x:y z\r\n").patterns).toEqual([
      { namespace: "x", target: "y", message: "z", line: 3 },
    ]);
  });

  it("ignores fenced code, inline code, escapes and mid-line mentions", () => {
    const text = [
      "```sh",
      "@memory:save inside a fence",
      "```",
      "~~~~",
      "@memory:save inside a tilde fence",
      "```",
      "~~~~",
      "`@memory:save inline code`",
      "\\@memory:save escaped",
      "write to me at user@host:22 or say @memory:save later",
      "@notify:#eng Build complete",
    ].join("\n");
    expect(found(text)).toEqual([["notify", "#eng", "Build complete"]]);
  });

  it("an unclosed fence hides the rest of the message", () => {
    expect(found("```\n@memory:save x")).toEqual([]);
  });

  it("rejects malformed namespaces and targets", () => {
    expect(found("@1abc:x y\n@:x y\n@ns: x\n@ns:\n@a.b:x y\n@-x:y z")).toEqual([]);
    expect(found(`@ns:${"t".repeat(201)} m`)).toEqual([]);
    expect(found(`@ns:${"t".repeat(200)} m`)).toHaveLength(1);
  });

  it("is bounded: patterns per message and line length", () => {
    const many = Array.from({ length: 25 }, (_, i) => `@n:t${i} m`).join("\n");
    const scanned = scanPatterns(many, { maxPatterns: 20 });
    expect(scanned.patterns).toHaveLength(20);
    expect(scanned.skipped).toBe(5);
    expect(found(`@n:t ${"m".repeat(20_000)}`)).toEqual([]);
    // A huge hostile message costs one pass.
    const huge = "@".repeat(2_000_000);
    expect(scanPatterns(huge).patterns).toEqual([]);
  });
});
