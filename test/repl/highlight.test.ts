import { beforeAll, describe, expect, it } from "vitest";
import { highlightLine, requestHighlighter } from "../../source/repl/markdown/highlight.js";
import { renderMarkdown } from "../../source/repl/markdown/render.js";
import { textWidth } from "../../source/repl/text-width.js";

beforeAll(async () => {
  await requestHighlighter();
});

describe("code blocks are highlighted (lowlight)", () => {
  it("tokens get their tone; the text is kept whole", () => {
    const spans = highlightLine("ts", "const n = 1; // one") ?? [];
    expect(spans.map((s) => s.text).join("")).toBe("const n = 1; // one");
    expect(spans.find((s) => s.text === "const")?.tone).toBe("keyword");
    expect(spans.find((s) => s.text === "1")?.tone).toBe("number");
    expect(spans.find((s) => s.text.includes("// one"))?.tone).toBe("comment");
    expect(highlightLine("python", "s = 'x'")?.find((s) => s.text === "'x'")?.tone).toBe("string");
  });

  it("an unknown or missing language stays plain", () => {
    expect(highlightLine("no-such-language", "x")).toBeUndefined();
    expect(highlightLine("", "x")).toBeUndefined();
  });

  it("in a rendered block: indentation kept, toned spans under the gutter, rows within the width", () => {
    const rows = renderMarkdown('```js\nif (a) {\n    return "漢字漢字漢字";\n}\n```', {
      width: 20,
      color: true,
    });
    const text = rows.map((row) => row.map((s) => s.text).join(""));
    expect(text[0]).toBe("  ┌ js");
    expect(text[2]).toBe('  │     return "漢字');
    for (const line of text) expect(textWidth(line)).toBeLessThanOrEqual(20);
    expect(rows[1]?.some((s) => s.text === "if" && s.tone === "keyword")).toBe(true);
    expect(rows.flat().some((s) => s.tone === "string")).toBe(true);
  });
});
