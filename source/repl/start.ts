import type { ReplStartOptions } from "../cli/repl-entry.js";
import { isCliStart, replOptionsFromCli } from "./cli-adapter.js";
import type { ReplOptions } from "./types.js";

export type { ReplOptions } from "./types.js";

/**
 * The interactive session (`acai` without `-p`). Resolves the exit code; the caller exits.
 * Accepts the REPL's injected options, or the CLI's start options (then the real
 * session, trust check and history file are wired here). The UI (ink, React) is
 * loaded while the project's trust is checked, so start-up pays for the slower one only.
 */
export async function startRepl(input: ReplOptions | ReplStartOptions): Promise<number> {
  const ui = import("./mount.js");
  ui.catch(() => undefined); // awaited below; no unhandled rejection if options fail first
  let options: ReplOptions;
  try {
    options = isCliStart(input) ? await replOptionsFromCli(input) : input;
  } catch (error) {
    const stderr = isCliStart(input) ? process.stderr : (input.stderr ?? process.stderr);
    stderr.write(
      `acai: could not start the interactive session: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const { mountRepl } = await ui;
  return mountRepl(options);
}
