import realStringWidth from "string-width";
import { describe, expect, it } from "vitest";
import stringWidth, { standaloneWidth } from "../../source/repl/string-width.js";

/** Every code point the fast path takes, as a one-character string. */
function standaloneCharacters(): string[] {
  const taken: string[] = [];
  for (let cp = 0x80; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    if (standaloneWidth(c, false) !== undefined) taken.push(c);
  }
  return taken;
}

/** A small seeded generator, so a failure repeats. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe("acai's string-width (decision 0073)", () => {
  const taken = standaloneCharacters();

  it("takes the letters, symbols and punctuation of most scripts", () => {
    expect(taken.length).toBeGreaterThan(100_000);
    for (const c of ["›", "·", "─", "é", "漢", "か", "한", "Ж", "ا", "✓", "⠋"]) {
      expect(taken, c).toContain(c);
    }
  });

  it("gives every code point it takes the real package's width, alone, in both ambiguity modes", () => {
    const wrong = taken.filter(
      (c) =>
        stringWidth(c) !== realStringWidth(c) ||
        stringWidth(c, { ambiguousIsNarrow: false }) !==
          realStringWidth(c, { ambiguousIsNarrow: false }),
    );
    expect(wrong.map((c) => c.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it("takes no code point that joins the character before or after it (Prepend, SpacingMark, Extend)", () => {
    const joins = taken.filter(
      (c) =>
        realStringWidth(`${c}a`) !== stringWidth(c) + 1 ||
        realStringWidth(`a${c}`) !== stringWidth(c) + 1,
    );
    expect(joins.map((c) => c.codePointAt(0)?.toString(16))).toEqual([]);
  });

  it("agrees with the real package on strings of such characters, ASCII and ANSI colours", () => {
    const next = random(25);
    const pool = [...taken, "a", "1", " ", "#"];
    for (let i = 0; i < 5_000; i++) {
      let text = "";
      for (let n = 1 + Math.floor(next() * 8); n > 0; n--)
        text += pool[Math.floor(next() * pool.length)];
      if (i % 3 === 0) text = `\u001b[1m${text}\u001b[22m`;
      expect(stringWidth(text), JSON.stringify(text)).toBe(realStringWidth(text));
    }
  });

  it("leaves emoji, marks, jamo, flags and control sequences to the real package, with its answers", () => {
    const hard = [
      "👍🏽",
      "e\u0301",
      "1\u20e3",
      "👨‍👩‍👧",
      "🇫🇷",
      "\u1100\u1161\u11a8",
      "ｶﾞ",
      "©",
      "❤\ufe0f",
      "\u0d4e\u0d15",
      "\u0e01\u0e33",
      "a\u200db",
      "\u001b[31m👍\u001b[39m",
      "\u001b]8;;https://x\u0007link\u001b]8;;\u0007",
    ];
    for (const text of hard) {
      expect(standaloneWidth(text, false), JSON.stringify(text)).toBeUndefined();
      expect(stringWidth(text), JSON.stringify(text)).toBe(realStringWidth(text));
      expect(stringWidth(text, { countAnsiEscapeCodes: true })).toBe(
        realStringWidth(text, { countAnsiEscapeCodes: true }),
      );
    }
    expect(stringWidth("")).toBe(0);
    expect(stringWidth("plain ascii")).toBe(11);
  });
});
