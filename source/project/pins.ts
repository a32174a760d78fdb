/**
 * Files that trusted configuration makes acai execute or load on the
 * project's behalf, beyond the hook and tool folders (hooks.md §7): the
 * programs and scripts an MCP server entry runs from inside the project
 * (`node ./tools/server.js`, `python3 scripts/mcp.py`, `./bin/server`), and
 * the replay files a `replay:FILE` model names (project settings, project
 * agent types). The manifest hashes them, so editing one revokes trust.
 * Pure: finding a path here runs and reads nothing.
 */
import path from "node:path";
import { wordPath } from "./command-paths.js";

type PinKind = "mcp-server" | "replay";

const SHELL_SEPARATORS = /[\s;|&()<>`]+/;

export interface PinnedFile {
  kind: PinKind;
  /** Absolute path of the file (it may not exist: then that is what is pinned). */
  file: string;
}

/** The part of an MCP server entry that says what it runs (stdio servers only). */
export interface McpCommandSpec {
  command: string;
  args?: readonly string[];
  /** The server's working directory, relative to the project root. */
  cwd?: string;
}

/**
 * The project files an MCP stdio server runs or loads: its command when it
 * is a path, and every argument (or the value of a `--flag=VALUE` argument)
 * that looks like a path inside the project, resolved from the server's
 * working directory. Best effort for arguments, as for settings commands:
 * the review shows every server's full command line.
 */
export function mcpServerPins(server: McpCommandSpec, projectDir: string): PinnedFile[] {
  const base = path.resolve(projectDir, server.cwd ?? ".");
  // An argument may itself be a shell line (`sh -c "node tools/server.js"`): its words count too.
  const words = [server.command, ...(server.args ?? [])]
    .flatMap((arg) => arg.split(SHELL_SEPARATORS))
    .map((word) => word.replace(/["']/g, ""))
    .flatMap((word) => {
      const equals = word.indexOf("=");
      return word.startsWith("-") && equals > 0 ? [word.slice(equals + 1)] : [word];
    });
  const files = new Set<string>();
  for (const word of words) {
    if (word.startsWith("@")) continue; // an npm package (`npx @scope/server`), not a path
    const file = wordPath(word, base, projectDir);
    if (file !== undefined) files.add(file);
  }
  return [...files].map((file) => ({ kind: "mcp-server", file }));
}

/**
 * The replay file a model spec names (`replay:FILE`, relative to the project
 * root), wherever it is: its scripted tool calls run as the model's.
 */
export function replayPins(spec: string | undefined, projectDir: string): PinnedFile[] {
  const trimmed = spec?.trim() ?? "";
  if (!trimmed.startsWith("replay:")) return [];
  const name = trimmed.slice("replay:".length);
  if (name === "") return [];
  return [{ kind: "replay", file: path.resolve(projectDir, name) }];
}
