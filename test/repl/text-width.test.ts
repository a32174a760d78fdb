import { describe, expect, it } from "vitest";
import { inputRows } from "../../source/repl/components/PromptInput.js";
import { oneLine, wrapWords } from "../../source/repl/format.js";
import { keyTableLines } from "../../source/repl/key-table.js";
import { renderMarkdown } from "../../source/repl/markdown/render.js";
import { chunkToWidth, padToWidth, sliceToWidth, textWidth } from "../../source/repl/text-width.js";

const rowText = (row: { text: string }[]) => row.map((s) => s.text).join("");

describe("terminal widths", () => {
  it("counts columns, not UTF-16 units: CJK and emoji take two, combining marks none", () => {
    expect(textWidth("abc")).toBe(3);
    expect(textWidth("漢字")).toBe(4);
    expect(textWidth("👍🏽")).toBe(2);
    expect(textWidth("e\u0301")).toBe(1);
    expect(sliceToWidth("漢字かな", 5)).toBe("漢字");
    expect(chunkToWidth("漢字かな", 3)).toEqual(["漢", "字", "か", "な"]);
    expect(padToWidth("漢", 4)).toBe("漢  ");
  });

  it("wraps and cuts plain text by columns", () => {
    expect(wrapWords("日本語の 文章です", 8)).toBe("日本語の\n文章です");
    expect(oneLine("漢字漢字漢字", 7)).toBe("漢字漢…");
    expect(textWidth(oneLine("漢字漢字漢字", 7))).toBeLessThanOrEqual(7);
  });

  it("the prompt's rows hold at most the width in columns, never half a character", () => {
    const rows = inputRows({ value: "漢字漢字漢", cursor: 5 }, 4);
    expect(rows.map((r) => r.text)).toEqual(["漢字", "漢字", "漢"]);
    expect(rows.map((r) => r.cursor)).toEqual([undefined, undefined, 1]);
  });

  it("a Markdown table with CJK and emoji cells keeps its column rules aligned", () => {
    const table = "| name | note |\n|---|---|\n| 東京 | 👍 ok |\n| ab | plain text |";
    const rows = renderMarkdown(table, { width: 60, color: false }).map(rowText);
    const ruleAt = rows.map((row) => textWidth(row.slice(0, row.indexOf("│"))));
    const header = rows.filter((row) => row.includes("│"));
    expect(header.length).toBe(3);
    expect(new Set(ruleAt.filter((_, i) => rows[i]?.includes("│"))).size).toBe(1);
  });
});

describe("the /help table", () => {
  const table: [string, string][] = [
    ["/compact [instructions]", "summarise the conversation so far to free context"],
    ["/help", "this list"],
  ];

  it("the key column is as wide as the widest key, descriptions wrap under their own column", () => {
    const lines = keyTableLines(table, 70);
    expect(lines[0]).toBe("/compact [instructions]  summarise the conversation so far to free");
    expect(lines[1]).toBe("                         context");
    expect(lines[2]).toBe("/help                    this list");
    for (const line of lines) expect(textWidth(line)).toBeLessThanOrEqual(70);
  });

  it("in a narrow pane a long key takes its own line and its description goes below it", () => {
    const lines = keyTableLines(table, 40);
    expect(lines).toEqual([
      "/compact [instructions]",
      "    summarise the conversation so far to",
      "    free context",
      "/help  this list",
    ]);
  });
});
