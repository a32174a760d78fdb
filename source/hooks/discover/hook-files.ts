/**
 * The files whose code a hook runs, for its fingerprint (fingerprint.ts): an
 * executable's or HOOK.md script's own file, a plugin's file, and the scripts
 * a settings command runs by path — the word in command position of each
 * part of the line (or the script an interpreter such as `node`, `python3`,
 * `sh` is given), when it is inside the project or `ACAI_HOME`. Best effort
 * for settings commands, as for trust (project/command-paths.ts): a path the
 * shell computes is not seen. Files a command only reads or writes
 * (`>> log.txt`) are not its code and are left out, so a hook that writes a
 * file named in its command does not fail its own check. A script that is
 * not there when the session loads counts too: one that appears later is a
 * change. A settings hook's settings file is not pinned here: the hook runs
 * the command text the session loaded (and trusted), whatever the file says
 * later (docs/hooks.md "When settings change").
 */
import path from "node:path";
import { type HookDefinition, startsProcess } from "../contract/definition.js";

export interface HookFileRoots {
  projectDir: string;
  acaiHome: string;
  homeDir: string;
}

const INTERPRETERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "node",
  "deno",
  "bun",
  "tsx",
  "ts-node",
  "python",
  "python3",
  "ruby",
  "perl",
  "php",
]);

export function hookFiles(hook: HookDefinition, roots: HookFileRoots): string[] {
  // An http, prompt, agent or mcp_tool hook runs no file of its own (its settings file is pinned whole).
  if (!startsProcess(hook) && hook.launch.mode !== "plugin") return [];
  if (!hook.launch.viaShell) return [hook.launch.command];
  return commandScripts(hook.launch.command, roots);
}

/** The scripts a shell command line runs by path, inside the project or ACAI_HOME. */
export function commandScripts(command: string, roots: HookFileRoots): string[] {
  const expanded = command
    .replace(/\$\{?(?:CLAUDE_PROJECT_DIR|ACAI_PROJECT_DIR)\}?/g, roots.projectDir)
    .replace(/\$\{?HOME\}?/g, roots.homeDir);
  const found = new Set<string>();
  for (const part of expanded.split(/&&|\|\||[;|&\n()`]/)) {
    const word = programWord(part);
    if (word === undefined) continue;
    const file = word.startsWith("~/")
      ? path.join(roots.homeDir, word.slice(2))
      : path.resolve(roots.projectDir, word);
    if (isWithin(roots.projectDir, file) || isWithin(roots.acaiHome, file)) found.add(file);
  }
  return [...found];
}

/** The program of one simple command, or the script its interpreter runs. */
function programWord(part: string): string | undefined {
  const words = part
    .trim()
    .split(/\s+/)
    .map((w) => w.replace(/["']/g, ""))
    .filter((w) => w !== "");
  let at = 0;
  while (at < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[at] ?? "")) at++;
  if (words[at] === "exec" || words[at] === "env") at++;
  const program = words[at];
  if (program === undefined || program.includes("$")) return undefined;
  // A bare name is looked up on PATH: not a file of the project.
  if (!INTERPRETERS.has(path.basename(program))) return program.includes("/") ? program : undefined;
  const script = words.slice(at + 1).find((w) => !w.startsWith("-"));
  return script === undefined || script.includes("$") ? undefined : script;
}

function isWithin(root: string, file: string): boolean {
  const relative = path.relative(path.resolve(root), file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}
