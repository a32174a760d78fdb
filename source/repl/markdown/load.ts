/**
 * The Markdown renderer is not part of the first frame: it loads once a
 * session is being started (`loadMarkdown`, awaited before the prompt opens),
 * long before a model answers. Until then text is shown plain.
 */
type Renderer = Pick<typeof import("./render.js"), "renderMarkdown">;

let renderer: Renderer | undefined;
let loading: Promise<void> | undefined;

export function loadMarkdown(): Promise<void> {
  loading ??= import("./render.js").then(
    ({ renderMarkdown }) => {
      renderer = { renderMarkdown };
    },
    () => {
      loading = undefined; // Plain text it is; the next session tries again.
    },
  );
  return loading;
}

/** The renderer, once loaded. */
export function markdownRenderer(): Renderer | undefined {
  return renderer;
}
