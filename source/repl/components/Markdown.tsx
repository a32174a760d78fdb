import { Text } from "ink";
import { stripControls } from "../../terminal/inert-text.js";
import { type Fence, wrapWords } from "../format.js";
import { markdownRenderer } from "../markdown/load.js";
import type { Span } from "../markdown/spans.js";
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

function SpanText({ span, codeColor }: { span: Span; codeColor?: ColorName }) {
  if (!span.bold && !span.italic && !span.dim && !span.strike && !span.underline && !span.code) {
    return span.text;
  }
  return (
    <Text
      bold={span.bold ?? false}
      italic={span.italic ?? false}
      dimColor={span.dim ?? false}
      strikethrough={span.strike ?? false}
      underline={span.underline ?? false}
      {...(span.code && codeColor ? { color: codeColor } : {})}
    >
      {span.text}
    </Text>
  );
}
