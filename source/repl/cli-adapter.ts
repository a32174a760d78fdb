import type { ReplStartOptions } from "../cli/repl-entry.js";
import { resolveAcaiPaths } from "../config/paths.js";
import type { ReplOptions } from "./types.js";

/** Turns what `acai` (no `-p`) hands over into the REPL's injected dependencies. */
export async function replOptionsFromCli(start: ReplStartOptions): Promise<ReplOptions> {
  const { checkProjectTrust, prepareSession } = await import("../cli/session.js");
  const { cwd, env, homeDir, flags } = start;
  const paths = resolveAcaiPaths({ env, homeDir, cwd });
  const trust = await checkProjectTrust({ cwd, env, homeDir });
  return {
    prepare: ({ askUser, projectHooks, model }) =>
      prepareSession({
        cwd,
        env,
        homeDir,
        flags: { ...flags, projectHooks, ...(model ? { model } : {}) },
        askUser,
      }),
    trust,
    projectHooks: flags.projectHooks,
    acaiHome: paths.home,
    historyFile: paths.replHistoryFile,
    env,
    ...(start.initialPrompt !== undefined ? { initialPrompt: start.initialPrompt } : {}),
  };
}

export function isCliStart(options: ReplOptions | ReplStartOptions): options is ReplStartOptions {
  return !("prepare" in options);
}
