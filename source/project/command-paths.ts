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
    if (word === "" || word.startsWith("-") || word.includes("$") || word.includes("=")) continue;
    if (!word.includes("/") && !/\.[A-Za-z0-9]{1,5}$/.test(word)) continue;
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(word)) continue; // a URL
    const absolute = path.resolve(projectDir, word.startsWith("~") ? "/nonexistent" : word);
    const relative = path.relative(projectDir, absolute);
    if (relative.startsWith("..") || path.isAbsolute(relative)) continue;
    found.add(absolute);
  }
  return [...found];
}
