/**
 * The size of a prompt as JSON text (`JSON.stringify(prompt).length`), kept
 * up to date between requests instead of recomputed: a session's prompt is
 * the previous one plus a few messages, so each request serializes only the
 * messages it has not seen. The replay model estimates its usage from it;
 * serializing the whole prompt every step made a long session's steps grow
 * with its history (issue 25).
 *
 * The prompt is a fresh copy at every request (the AI SDK converts the
 * history each time), so messages cannot be recognised by identity. The
 * cached prefix is trusted only when the prompt is at least as long and its
 * first two messages and the last cached one serialize as before — a
 * compaction replaces the start of the conversation, and anything else
 * that rewrites it changes the count or one of those; then every message is
 * measured again. The figure stays exact: the same length as serializing the
 * whole prompt.
 */
export type PromptSizer = (prompt: readonly unknown[]) => number;

/** How many messages at the start are compared to trust the cached prefix. */
const CHECKED_HEAD = 2;

const jsonOf = (message: unknown): string => JSON.stringify(message) ?? "null";

export function createPromptSizer(): PromptSizer {
  let head: string[] = [];
  let count = 0;
  let lastText = "";
  let total = 0;

  const prefixHolds = (prompt: readonly unknown[]): boolean => {
    const cached = count;
    if (cached === 0 || prompt.length < cached) return false;
    for (const [i, text] of head.entries()) if (jsonOf(prompt[i]) !== text) return false;
    return jsonOf(prompt[cached - 1]) === lastText;
  };

  return (prompt) => {
    if (!prefixHolds(prompt)) {
      head = [];
      count = 0;
      total = 0;
    }
    for (let i = count; i < prompt.length; i++) {
      const text = jsonOf(prompt[i]);
      if (i < CHECKED_HEAD) head.push(text);
      count++;
      total += text.length;
      lastText = text;
    }
    // "[" + the messages joined by "," + "]"
    return total + Math.max(0, prompt.length - 1) + 2;
  };
}
