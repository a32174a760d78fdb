/**
 * Secrets a project executable asks for in its describe answer (`"env":
 * ["OPENAI_API_KEY"]`). Describe runs only after trust, so the request is
 * learned after the user trusted the files: it is honoured only once the user
 * has seen and confirmed exactly that request (`acai hooks trust` shows it
 * and records it with the trust record, hooks/discover/trust.ts). A request not
 * confirmed, or one that changed since, gets none of its secrets and a
 * warning naming the executable and the variables (hooks.md §3, §7).
 * Requests written in trusted files (HOOK.md front matter, a settings entry)
 * are confirmed by trusting the file, which the review shows them with.
 */
import path from "node:path";

/** Confirmed requests: the executable's key (its path from the project root, `/`-separated) → names. */
export type ConfirmedEnv = Readonly<Record<string, readonly string[]>>;

/** The key a confirmation is recorded under: the file's path from the project root. */
export function envRequestKey(file: string, projectDir: string): string {
  const relative = path.relative(projectDir, file);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join("/");
}

/** The names of `requested` that the confirmation for `key` does not cover. */
export function unconfirmedNames(
  requested: readonly string[],
  confirmed: readonly string[] | undefined,
): string[] {
  const allowed = new Set(confirmed ?? []);
  return [...new Set(requested)].filter((name) => !allowed.has(name)).sort();
}

export interface EnvRequester {
  /** What the user sees it as: a hook's or tool's name. */
  name: string;
  file: string;
  env: readonly string[];
}

export interface ConfirmedRequests<T> {
  /** The same items, with `env` emptied where the request is not confirmed. */
  items: T[];
  warnings: string[];
}

/**
 * Keeps each project executable's describe `env` only when the user
 * confirmed exactly that request (every name in it); otherwise it gets none
 * of them, and a warning says which variables and how to confirm.
 */
export function applyEnvConfirmations<T extends EnvRequester>(
  items: readonly T[],
  options: { confirmed: ConfirmedEnv; projectDir: string; what: "hook" | "tool" },
): ConfirmedRequests<T> {
  const warnings: string[] = [];
  const result = items.map((item) => {
    if (item.env.length === 0) return item;
    const key = envRequestKey(item.file, options.projectDir);
    const missing = unconfirmedNames(item.env, options.confirmed[key]);
    if (missing.length === 0) return item;
    warnings.push(unconfirmedWarning(item, key, missing, options.what));
    return { ...item, env: [] };
  });
  return { items: result, warnings };
}

function unconfirmedWarning(
  item: EnvRequester,
  key: string,
  missing: readonly string[],
  what: "hook" | "tool",
): string {
  const names = missing.join(", ");
  return `Project ${what} ${item.name} (${key}) asks for ${names} in its describe answer, which you have not confirmed: it runs without ${missing.length === 1 ? "that variable" : "those variables"}. Run \`acai hooks trust\` to review and confirm the request.`;
}
