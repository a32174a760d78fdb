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

/** The variables that name a model server's base URL. */
const BASE_URL_VARIABLES = ["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"] as const;

/**
 * A base-URL variable that is set but empty (or blank) means unset, as in
 * `OPENAI_BASE_URL= acai -p …`. It is removed from `env` (the real
 * `process.env` at start-up), because the AI SDK reads these variables itself
 * when its modules load and refuses an empty one for every run, replay
 * included. Returns the names removed.
 */
export function dropBlankBaseUrls(env: Record<string, string | undefined>): string[] {
  const dropped: string[] = [];
  for (const name of BASE_URL_VARIABLES) {
    const value = env[name];
    if (value !== undefined && value.trim() === "") {
      delete env[name];
      dropped.push(name);
    }
  }
  return dropped;
}
