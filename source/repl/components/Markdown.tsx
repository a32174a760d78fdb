import { Text } from "ink";
import { stripControls } from "../../terminal/inert-text.js";
import { type Fence, wrapWords } from "../format.js";
import { markdownRenderer } from "../markdown/load.js";
import type { Span, Tone } from "../markdown/spans.js";
import { type ColorName, useTheme } from "../theme.js";

/**
 * Assistant text (model text: control sequences stripped), rendered as
 * Markdown and wrapped to `width`. Plain until the renderer has loaded.
 */
export function Markdown({ text, width, fence }: { text: string; width: number; fence?: Fence }) {
  const { color, c } = useTheme();
  const renderer = markdownRenderer();
  if (!renderer) return <Text wrap="wrap">{wrapWords(stripControls(text), width)}</Text>;
  const rows = renderer.renderMarkdown(text, { width, color, ...(fence ? { fence } : {}) });
  const cyan = c("cyan");
  return (
    <Text wrap="wrap">
      {rows.map((row, r) => [
        r > 0 ? "\n" : "",
        row.length === 0 ? " " : "",
        ...row.map((span, s) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: spans of a finished row never move
          <SpanText key={`${r}.${s}`} span={span} {...(cyan ? { codeColor: cyan } : {})} />
        )),
      ])}
    </Text>
  );
}

/** Highlighted code's colors (markdown/highlight.ts); a comment is also dim, so it reads without color. */
const TONE_COLOR: Record<Tone, ColorName> = {
  keyword: "magenta",
  string: "green",
  number: "yellow",
  comment: "gray",
  title: "blue",
  type: "cyan",
};

function SpanText({ span, codeColor }: { span: Span; codeColor?: ColorName }) {
  const { c } = useTheme();
  if (
    !span.bold &&
    !span.italic &&
    !span.dim &&
    !span.strike &&
    !span.underline &&
    !span.code &&
    span.tone === undefined
  ) {
    return span.text;
  }
  const toneColor = span.tone === undefined ? undefined : c(TONE_COLOR[span.tone]);
  const color = toneColor ?? (span.code ? codeColor : undefined);
  return (
    <Text
      bold={span.bold ?? false}
      italic={span.italic ?? false}
      dimColor={(span.dim ?? false) || span.tone === "comment"}
      strikethrough={span.strike ?? false}
      underline={span.underline ?? false}
      {...(color ? { color } : {})}
    >
      {span.text}
    </Text>
  );
}
