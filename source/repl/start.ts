import type { ReplStartOptions } from "../cli/repl-entry.js";
import { isCliStart, replOptionsFromCli } from "./cli-adapter.js";
import { loadUi } from "./load-ui.js";
import type { ReplOptions } from "./types.js";

export type { ReplOptions } from "./types.js";

/**
 * The interactive session (`acai` without `-p`). Resolves the exit code; the caller exits.
 * Accepts the REPL's injected options, or the CLI's start options (then the real
 * session, trust check and history file are wired here). Only the UI loads before
 * the first frame; the prompt takes input while the session modules load behind it.
 */
export async function startRepl(input: ReplOptions | ReplStartOptions): Promise<number> {
  const { mountRepl } = await loadUi();
  return mountRepl(isCliStart(input) ? replOptionsFromCli(input) : input);
}
