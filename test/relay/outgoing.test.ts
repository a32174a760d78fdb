import { describe, expect, it } from "vitest";
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
});
