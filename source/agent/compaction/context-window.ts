/**
 * How many tokens a model's context holds, for automatic compaction: known
 * windows of common models, else the `contextWindow` setting; unknown without
 * one (then only a context-length error from the server compacts).
 */

/** Model id patterns (lower case, provider prefix removed) and their windows, first match wins. */
const KNOWN_WINDOWS: readonly [RegExp, number][] = [
  [/^gpt-5/, 400_000],
  [/^gpt-4\.1/, 1_047_576],
  [/^gpt-4o/, 128_000],
  [/^gpt-4-turbo/, 128_000],
  [/^o[134](-|$)/, 200_000],
  [/^claude-/, 200_000],
  [/^gemini-(1\.5|2)/, 1_048_576],
  [/^(llama-?3\.[123]|qwen2\.5|qwen3)/, 128_000],
];

function knownContextWindow(modelId: string): number | undefined {
  const id = modelId.toLowerCase().replace(/^[a-z-]+:/, "");
  for (const [pattern, tokens] of KNOWN_WINDOWS) if (pattern.test(id)) return tokens;
  return undefined;
}

/** Compaction starts when the last request used this share of the window. */
export const DEFAULT_COMPACT_AT = 0.8;

/** The window to compact against: the setting wins, then the known table. */
export function contextWindowFor(modelId: string, setting: number | undefined): number | undefined {
  return setting ?? knownContextWindow(modelId);
}

/**
 * A context-length error from the server: OpenAI's `context_length_exceeded`
 * code, or the wording of other servers (Anthropic's "prompt is too long",
 * vLLM's and llama.cpp's "maximum context length").
 */
export function isContextLengthError(error: unknown): boolean {
  const texts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== undefined && current !== null; depth++) {
    if (typeof current === "object") {
      const record = current as Record<string, unknown>;
      for (const key of ["message", "responseBody", "code"]) {
        if (typeof record[key] === "string") texts.push(record[key] as string);
      }
      const data = record.data as Record<string, unknown> | undefined;
      const inner = data?.error as Record<string, unknown> | undefined;
      if (typeof inner?.code === "string") texts.push(inner.code);
      current = record.cause ?? record.lastError;
    } else {
      texts.push(String(current));
      break;
    }
  }
  return texts.some((text) =>
    /context_length_exceeded|maximum context length|context window|prompt is too long|too many tokens/i.test(
      text,
    ),
  );
}
