/**
 * The one check of an OpenAI-compatible base URL, whichever source gives it:
 * `--base-url`, `baseUrl` in a settings file, or `OPENAI_BASE_URL`. Each
 * caller names its source; all three are usage errors (exit 2). No zod here:
 * the CLI parses flags with this before anything heavy loads.
 */

/** What is wrong with every bad base URL, without the source. */
export const BASE_URL_REQUIREMENT = "must be an http(s) URL, e.g. http://localhost:11434/v1";

/** Whether `value` is an absolute http: or https: URL. */
export function isHttpUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return false;
  }
  return url.protocol === "http:" || url.protocol === "https:";
}
