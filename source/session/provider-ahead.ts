/**
 * The model's provider loads while the first hooks run (decision 0066).
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
 */
import type { LanguageModel } from "ai";

/** Called at each hook's start; the first call starts the model's load, after the hook's own start. */
export function providerAhead(model: LanguageModel): () => void {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    // Its own turn of the event loop: the hook's process is asked for first.
    setImmediate(() => {
      if (typeof model !== "object") return;
      try {
        // A lazily loaded provider loads at the first read of its supportedUrls (models/openai.ts).
        Promise.resolve(model.supportedUrls).catch(() => {});
      } catch {
        // The first request reads it again and meets the same failure there.
      }
    });
  };
}
