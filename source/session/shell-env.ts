/**
 * `CLAUDE_ENV_FILE`: each session_start and file_changed hook gets a file of its own (as in
 * Claude Code, so a hook that writes with `>` does not erase another's lines),
 * created empty, 0600, in a 0700 folder of the session under
 * `$ACAI_HOME/session-env/<session id>/`. What the hooks write there becomes
 * part of the Bash tool's environment for the rest of the session: the files
 * are read (as data, see env-file-parse.ts) before each tool call, again only
 * when one changed.
 */
import { lstatSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ShellEnvironment } from "../agent/types.js";
import { readRegularFileSync } from "../config/read-regular-file.js";
import type { HookDefinition } from "../hooks/contract/definition.js";
import { eventRow } from "../hooks/contract/events/table.js";
import { ENV_FILE_MAX_BYTES as MAX_ENV_FILE_BYTES } from "../process/spawner-wire.js";
import { parseEnvFile } from "./env-file-parse.js";

/** `$ACAI_HOME/session-env`: session_start hooks' sandbox policy may write in it (session/sandbox.ts). */
export function sessionEnvRoot(acaiHome: string): string {
  return path.join(acaiHome, "session-env");
}

/** `$ACAI_HOME/session-env/<sessionId>` */
export function sessionEnvDir(acaiHome: string, sessionId: string): string {
  return path.join(sessionEnvRoot(acaiHome), sessionId);
}

/**
 * Creates one empty file per session_start or file_changed hook, in the hooks'
 * order; returns hook id → file (empty when there is none: nothing is created).
 */
export async function createSessionEnvFiles(
  dir: string,
  hooks: readonly Pick<HookDefinition, "id" | "events">[],
): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  // Hooks of every event whose hooks get CLAUDE_ENV_FILE (session_start, file_changed).
  const starting = hooks.filter((hook) =>
    hook.events.some((event) => eventRow(event).claudeEnvFile === true),
  );
  if (starting.length === 0) return files;
  await mkdir(dir, { recursive: true, mode: 0o700 });
  for (const [index, hook] of starting.entries()) {
    const file = path.join(dir, `env-hook-${index}.sh`);
    // Made anew, never through what is there (a session resumed: a hook that could write the folder
    // may have left a link to another file in its place).
    await rm(file, { force: true });
    await writeFile(file, "", { mode: 0o600, flag: "wx" });
    files.set(hook.id, file);
  }
  return files;
}

interface Seen {
  key: string;
  vars: Record<string, string>;
}

/**
 * Reads the files in order (a later file's value wins), re-parsing only those
 * whose size or mtime changed. `warnings` holds only what was not said before.
 */
export function createShellEnvReader(
  files: readonly string[],
  base: Readonly<Record<string, string>>,
): () => ShellEnvironment {
  const seen = new Map<string, Seen>();
  const said = new Set<string>();
  let merged: Record<string, string> = {};
  return () => {
    const warnings: string[] = [];
    let changed = false;
    for (const file of files) {
      const info = lstatSync(file, { throwIfNoEntry: false });
      const key = info ? `${info.size}:${info.mtimeMs}` : "missing";
      if (seen.get(file)?.key === key) continue;
      changed = true;
      const { vars, problems } = readOne(file, base);
      seen.set(file, { key, vars });
      for (const problem of problems) {
        if (said.has(problem)) continue;
        said.add(problem);
        warnings.push(problem);
      }
    }
    if (changed) {
      merged = {};
      for (const file of files) Object.assign(merged, seen.get(file)?.vars);
    }
    return { vars: merged, warnings };
  };
}

function readOne(
  file: string,
  base: Readonly<Record<string, string>>,
): { vars: Record<string, string>; problems: string[] } {
  // Never through a link: a hook that may write the folder could point one at a file its sandbox hides.
  const read = readRegularFileSync(file, MAX_ENV_FILE_BYTES, { followLinks: false });
  if (!read.ok) {
    if (read.problem === "missing") return { vars: {}, problems: [] };
    const problem =
      read.problem === "too-large"
        ? `CLAUDE_ENV_FILE ${file} is larger than ${MAX_ENV_FILE_BYTES / 1024} KiB; its variables are not used`
        : `cannot read CLAUDE_ENV_FILE ${file}: ${read.reason}`;
    return { vars: {}, problems: [problem] };
  }
  const parsed = parseEnvFile(read.data.toString("utf8"), base);
  return {
    vars: parsed.vars,
    problems: parsed.skipped.map(
      (s) => `CLAUDE_ENV_FILE ${file} line ${s.line} skipped (${s.why}): ${JSON.stringify(s.text)}`,
    ),
  };
}
