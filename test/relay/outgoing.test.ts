import { describe, expect, it } from "vitest";
import { scanPatterns } from "../../source/patterns/scan.js";
import { relayLines } from "../../source/relay/outgoing.js";

describe("relayLines", () => {
  it("reads @relay:NAME and @relay:* lines", () => {
    expect(relayLines("Hi.\n@relay:bob look at this\n  @relay:* Status update").lines).toEqual([
      { to: "bob", content: "look at this" },
      { to: "*", content: "Status update" },
    ]);
  });

  it("@broadcast: sends the rest of the line to every agent (@broadcast:* the same)", () => {
    const { lines } = relayLines(
      "@broadcast: STATUS: tests green\n@broadcast:STATUS: still green\n@broadcast:* done for today\r",
    );
    expect(lines).toEqual([
      { to: "*", content: "STATUS: tests green" },
      { to: "*", content: "STATUS: still green" },
      { to: "*", content: "done for today" },
    ]);
  });

  it("escaped, mid-line or empty lines are not messages", () => {
    const text = [
      "\\@broadcast: not sent",
      "\\@relay:bob not sent",
      "write to user@relay:bob later",
      "@broadcast:",
      "@broadcast:*",
      "@relay:bob",
    ].join("\n");
    expect(relayLines(text).lines).toEqual([]);
  });

  it("counts @broadcast: lines against the per-response cap", () => {
    const text = Array.from({ length: 12 }, (_, i) => `@broadcast: update ${i}`).join("\n");
    const { lines, dropped } = relayLines(text);
    expect(lines).toHaveLength(10);
    expect(dropped).toBe(2);
  });

  it("an @relay: line inside fenced code is not sent, as the pattern scanner does not read it", () => {
    const text = [
      "Here is how to write to Bob:",
      "```",
      "@relay:bob inside backticks",
      "```",
      "~~~~ text",
      "@broadcast: inside tildes",
      "~~~",
      "still inside: a shorter fence does not close it",
      "@relay:bob still inside",
      "~~~~",
      "```js",
      "@relay:bob in a block with a language",
      "```",
      "@relay:bob after the blocks",
    ].join("\n");
    expect(relayLines(text).lines).toEqual([{ to: "bob", content: "after the blocks" }]);
    // One rule for both readers: the lines sent are the relay patterns the scanner finds.
    const scanned = scanPatterns(text).patterns.filter((p) => p.namespace === "relay");
    expect(scanned.map((p) => ({ to: p.target, content: p.message }))).toEqual(
      relayLines(text).lines,
    );
  });

  it("an unclosed fence keeps the rest of the message as code", () => {
    expect(relayLines("```\n@relay:bob never sent\n@broadcast: nor this").lines).toEqual([]);
  });
});
