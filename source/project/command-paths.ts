/**
 * Files a settings `command` names by path (`./scripts/lint.sh`,
 * `node scripts/check.js`, `"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh`), so that
 * trusting the command also pins the project files it runs. Best effort by
 * design: a path the shell computes (`sh -c "$(cat x)"`) is not seen; the
 * review shows every command in full for that reason.
 */
import path from "node:path";

const PROJECT_DIR_VARIABLE = /\$\{?(?:CLAUDE_PROJECT_DIR|ACAI_PROJECT_DIR)\}?/g;
const SEPARATORS = /[\s;|&()<>`]+/;

export function commandPaths(command: string, projectDir: string): string[] {
  const expanded = command.replace(PROJECT_DIR_VARIABLE, projectDir);
  const found = new Set<string>();
  for (const raw of expanded.split(SEPARATORS)) {
    const word = raw.replace(/^['"]+|['"]+$/g, "").replace(/["']/g, "");
    if (word.includes("=")) continue;
    const file = wordPath(word, projectDir, projectDir);
    if (file !== undefined) found.add(file);
  }
  return [...found];
}

/**
 * The project file one word of a command names (resolved against `baseDir`),
 * when it looks like a path (`./x`, `a/b`, `x.py`) and lies inside the
 * project; undefined for options, variables, URLs, `~` and anything outside.
 */
export function wordPath(word: string, baseDir: string, projectDir: string): string | undefined {
  if (word === "" || word.startsWith("-") || word.includes("$")) return undefined;
  if (!word.includes("/") && !/\.[A-Za-z0-9]{1,5}$/.test(word)) return undefined;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) return undefined; // a URL
  if (word.startsWith("~")) return undefined;
  const absolute = path.resolve(baseDir, word);
  const relative = path.relative(projectDir, absolute);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  return absolute;
}
