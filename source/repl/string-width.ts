/**
 * `string-width` with a fast path (decision 0073): the width of a string whose
 * characters each stand alone, computed without the Unicode segmenter and the
 * emoji regular expression, which V8 takes ~36 ms to compile at its first use —
 * on the REPL's first draw, since its prompt line holds "›" and "·". Any other
 * string goes to the real `string-width`.
 *
 * The bundle gives ink and its helpers this module wherever they import
 * `string-width` (scripts/bundle-ui.mjs), so the REPL's every measure takes the
 * same path; this module's own import is the real package. The package's
 * emoji pattern is compiled at its first use, which the fast path spares.
 * test/repl/string-width.test.ts checks the fast path against the real one
 * over every code point it takes.
 */
import { eastAsianWidth } from "get-east-asian-width";
import realStringWidth from "string-width";
import stripAnsi from "strip-ansi";

export interface StringWidthOptions {
  /** Ambiguous characters take one column (default) or two. */
  readonly ambiguousIsNarrow?: boolean;
  /** Count ANSI escape sequences as text (default: strip them first). */
  readonly countAnsiEscapeCodes?: boolean;
}

/**
 * Characters that are a grapheme cluster of their own beside any other such
 * character, and whose width `string-width` takes from East Asian Width alone:
 * letters, digits, punctuation, symbols and spaces, less what joins a
 * neighbour or has a rule of its own there — emoji and their parts, the
 * Hangul jamo, halfwidth and fullwidth forms, default-ignorable characters,
 * Thai and Lao AM (they extend the character before them) and the letters
 * that prefix the one after them (Malayalam dot reph and their kin).
 */
// biome-ignore lint/complexity/useRegexLiterals: tsconfig's target (ES2023) refuses the v flag in a literal; the constructor takes it.
const STANDALONE = new RegExp(
  String.raw`^[[\p{L}\p{N}\p{P}\p{S}\p{Zs}]--[\p{Extended_Pictographic}\p{Emoji_Presentation}\p{Emoji_Modifier}\p{Regional_Indicator}\p{Default_Ignorable_Code_Point}\u0e33\u0eb3\u0d4e\u1100-\u11ff\ua960-\ua97f\ud7b0-\ud7ff\uff00-\uffef\u{111c2}\u{111c3}\u{113d1}\u{1193f}\u{11941}\u{11a3a}\u{11a84}-\u{11a89}\u{11d46}\u{11f02}]]*$`,
  "v",
);

/** Whether each of `text`'s characters stands alone (a grapheme cluster of its own; see STANDALONE). */
export function standsAlone(text: string): boolean {
  return STANDALONE.test(text);
}

/** The fast path's width, or undefined where the real `string-width` must say. */
export function standaloneWidth(text: string, ambiguousAsWide: boolean): number | undefined {
  if (!standsAlone(text)) return undefined;
  let width = 0;
  for (const character of text) {
    width += eastAsianWidth(character.codePointAt(0) ?? 0, { ambiguousAsWide });
  }
  return width;
}

/** Columns `input` takes on a terminal: `string-width`'s answer, faster for most text. */
export default function stringWidth(input: string, options: StringWidthOptions = {}): number {
  if (typeof input !== "string" || input.length === 0) return 0;
  const { ambiguousIsNarrow = true, countAnsiEscapeCodes = false } = options;
  const text =
    !countAnsiEscapeCodes && (input.includes("\u001b") || input.includes("\u009b"))
      ? stripAnsi(input)
      : input;
  if (/^[\u0020-\u007e]*$/.test(text)) return text.length;
  return standaloneWidth(text, !ambiguousIsNarrow) ?? realStringWidth(input, options);
}
