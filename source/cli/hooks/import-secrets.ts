/**
 * Which secret-looking variables an imported hook reads. acai removes them
 * from every hook's environment (process/secrets.ts) unless the hook lists
 * them in `env`; Claude Code passes its whole environment. A TTS hook keyed on
 * `ELEVENLABS_API_KEY` would quietly fall back to something else, so the
 * import finds the names in the command and in the script files it names
 * inside the project, and writes them into the entry's `env`.
 *
 * By reading the text, best effort: `$NAME`, `${NAME}`, `os.environ["NAME"]`,
 * `os.environ.get("NAME")`, `os.getenv("NAME")`, `process.env.NAME`,
 * `process.env["NAME"]`, `ENV["NAME"]`, `ENV.fetch("NAME")`, `Deno.env.get("NAME")`,
 * `os.Getenv("NAME")`, `env::var("NAME")`. Pure.
 */
import { nameLooksSecret } from "../../process/secrets.js";

/** Set by acai itself after scrubbing: never needs asking for. */
const PROVIDED = new Set(["ACAI_SESSION_ID", "ACAI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"]);

const NAME = "([A-Za-z_][A-Za-z0-9_]*)";
const PATTERNS: readonly RegExp[] = [
  new RegExp(`\\$\\{?${NAME}`, "g"),
  new RegExp(`process\\.env\\.${NAME}`, "g"),
  new RegExp(`(?:environ|ENV|env)\\s*\\[\\s*["'\`]${NAME}["'\`]\\s*\\]`, "g"),
  new RegExp(
    `(?:environ\\.get|getenv|Getenv|ENV\\.fetch|env\\.get|env::var|env\\.var)\\s*\\(\\s*["'\`]${NAME}["'\`]`,
    "g",
  ),
];

/** Secret-looking variable names `text` reads, in order of first appearance. */
export function secretVariablesRead(text: string): string[] {
  const found: Array<{ name: string; at: number }> = [];
  for (const pattern of PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const name = match[1];
      if (name !== undefined) found.push({ name, at: match.index });
    }
  }
  const names = found.sort((a, b) => a.at - b.at).map((f) => f.name);
  return [...new Set(names)].filter((name) => nameLooksSecret(name) && !PROVIDED.has(name));
}

export interface SecretsOfHook {
  /** The names, in order. */
  names: string[];
  /** Where each was seen: "the command" or a file (as given). */
  where: Map<string, string[]>;
}

/** The secret-looking variables of a command and of the script files it names (their texts given). */
export function secretsOfHook(
  command: string,
  scripts: ReadonlyArray<{ file: string; text: string }>,
): SecretsOfHook {
  const where = new Map<string, string[]>();
  const note = (name: string, place: string): void => {
    const places = where.get(name) ?? [];
    if (!places.includes(place)) places.push(place);
    where.set(name, places);
  };
  for (const name of secretVariablesRead(command)) note(name, "the command");
  for (const script of scripts) {
    for (const name of secretVariablesRead(script.text)) note(name, script.file);
  }
  return { names: [...where.keys()], where };
}
