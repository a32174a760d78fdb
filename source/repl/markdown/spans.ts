import { textWidth } from "../text-width.js";

/** What a piece of highlighted code is (highlight.ts): the theme gives each a color. */
export type Tone = "keyword" | "string" | "number" | "comment" | "title" | "type";

/** A run of text with one style; a row is what fits on one terminal line. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  dim?: boolean;
  strike?: boolean;
  underline?: boolean;
  tone?: Tone;
}

export type Style = Omit<Span, "text">;
export type Row = Span[];

/** Columns the spans take on a terminal (wide characters count two). */
export function spansLength(spans: readonly Span[]): number {
  let n = 0;
  for (const span of spans) n += textWidth(span.text);
  return n;
}

export function dim(text: string): Span {
  return { text, dim: true };
}
