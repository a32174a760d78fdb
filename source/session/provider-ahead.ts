/**
 * The model's provider loads while the first hooks run (decision 0066), and
 * Node's web streams run once (decision 0081).
 *
 * The provider packages load at their model's first use (models/openai.ts,
 * models/anthropic.ts): without this, at the first model request — after the
 * hooks of `session_start` and `user_prompt`, whose processes acai's thread
 * only waits for. So the first hook a session starts also starts that load,
 * once, right after the hook's process is asked for (the load is acai's own
 * code, and trust was settled before any hook runs). Nothing else changes:
 * the same load, the same request; a load that fails fails the first request
 * with the same error, where it did (the rejected load is the one the request
 * awaits), and until then it is nobody's error.
 *
 * Node's web streams (`TransformStream`, `ReadableStream`) are first run by
 * the AI SDK's `streamText`, on the way from the last hook to the request:
 * Node's own stream functions compile at their first call. One stream made
 * and read, on the turn after the provider's load starts, does that while the
 * hooks' processes run (and loads the streams' modules, where nothing has).
 */
import type { LanguageModel } from "ai";

/**
 * Called at each hook's start; the first call starts the model's load, after the hook's own start,
 * and warms the web streams on the turn after (`warm`, for tests).
 */
export function providerAhead(model: LanguageModel, warm: () => void = warmWebStreams): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    // Its own turn of the event loop: the hook's process is asked for first.
    setImmediate(() => {
      startLoading(model);
      // Its own turn too: a hook's answer that came in meanwhile is read first.
      setImmediate(warm);
    });
  };
}

/** A lazily loaded provider loads at the first read of its supportedUrls (models/openai.ts). */
function startLoading(model: LanguageModel): void {
  if (typeof model !== "object") return;
  try {
    Promise.resolve(model.supportedUrls).catch(() => {});
  } catch {
    // The first request reads it again and meets the same failure there.
  }
}

/** Node's web streams, loaded and run once: a value written to a stream and read from it. */
function warmWebStreams(): void {
  const { readable, writable } = new TransformStream<number, number>();
  const writer = writable.getWriter();
  writer.write(0).catch(() => {});
  readable
    .getReader()
    .read()
    .catch(() => {});
}
