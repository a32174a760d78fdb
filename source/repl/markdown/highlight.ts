/**
 * Syntax highlighting of fenced code blocks, line by line, with lowlight
 * (highlight.js grammars; decision 0025): its token tree becomes spans with a
 * tone (keyword, string, number, comment, title, type), which the theme turns
 * into colors. The grammars take a while to load, so they load the first time
 * a block with a language is shown (`requestHighlighter`), not with the REPL;
 * until then code is plain. An unknown language stays plain.
 */
import type { Span, Tone } from "./spans.js";

type Lowlight = ReturnType<typeof import("lowlight")["createLowlight"]>;

interface HastNode {
  type: string;
  value?: string;
  properties?: { className?: unknown };
  children?: HastNode[];
}

let lowlight: Lowlight | undefined;
let loading: Promise<void> | undefined;

/** Starts loading the grammars (once); resolves when they are in. */
export function requestHighlighter(): Promise<void> {
  loading ??= import("lowlight").then(
    ({ common, createLowlight }) => {
      lowlight = createLowlight(common);
    },
    () => {
      loading = undefined;
    },
  );
  return loading;
}

/** One line of code in `lang` as toned spans; undefined when it cannot be highlighted (yet). */
export function highlightLine(lang: string, line: string): Span[] | undefined {
  const name = lang.toLowerCase();
  if (name === "") return undefined;
  if (lowlight === undefined) {
    void requestHighlighter();
    return undefined;
  }
  if (!lowlight.registered(name)) return undefined;
  try {
    const tree = lowlight.highlight(name, line) as HastNode;
    const spans: Span[] = [];
    walk(tree, undefined, spans);
    return spans;
  } catch {
    return undefined;
  }
}

function walk(node: HastNode, tone: Tone | undefined, out: Span[]): void {
  if (node.type === "text" && node.value) {
    out.push(tone === undefined ? { text: node.value } : { text: node.value, tone });
    return;
  }
  const own = toneOf(node.properties?.className) ?? tone;
  for (const child of node.children ?? []) walk(child, own, out);
}

const TONES: Record<string, Tone> = {
  keyword: "keyword",
  "selector-tag": "keyword",
  built_in: "type",
  type: "type",
  literal: "number",
  number: "number",
  string: "string",
  regexp: "string",
  "template-variable": "string",
  comment: "comment",
  quote: "comment",
  meta: "comment",
  title: "title",
  "title.function": "title",
  "title.class": "type",
  function: "title",
  attr: "title",
  variable: "title",
};

function toneOf(className: unknown): Tone | undefined {
  if (!Array.isArray(className)) return undefined;
  for (const name of className) {
    if (typeof name !== "string") continue;
    const bare = name.replace(/^hljs-/, "").replace(/_$/, "");
    const tone = TONES[bare] ?? TONES[bare.split(".")[0] ?? ""];
    if (tone !== undefined) return tone;
  }
  return undefined;
}
