import { resolveAcaiPaths } from "../config/paths.js";
import type { ReplOptions, ReplStartOptions } from "./types.js";

/**
 * Turns what `acai` (no `-p`) hands over into the REPL's injected dependencies.
 * Nothing heavy happens here: the session modules load, and the trust check
 * runs, only when the controller asks — after the first frame is on screen.
 */
export function replOptionsFromCli(start: ReplStartOptions): ReplOptions {
  const { cwd, env, homeDir, flags } = start;
  const paths = resolveAcaiPaths({ env, homeDir, cwd });
  return {
    prepare: async ({ askUser, projectHooks, model, resume, projectSetTaken }) => {
      const { resume: cliResume, ...rest } = flags;
      const chosen = resume === undefined ? cliResume : (resume ?? undefined);
      return (await start.sessionModules()).prepareSession({
        cwd,
        env,
        homeDir,
        shellGrammarBaselineOnly: true,
        flags: {
          ...rest,
          projectHooks,
          ...(model ? { model } : {}),
          ...(chosen ? { resume: chosen } : {}),
        },
        askUser,
        ui: "shell",
        ...(projectSetTaken === undefined ? {} : { projectSetTaken }),
      });
    },
    trust: async () => (await start.sessionModules()).checkProjectTrust({ cwd, env, homeDir }),
    // Settings `pricing` first; else OpenAI's list price against the base URL in effect,
    // as the session resolves it: flag, then setting (the project's once trusted), then OPENAI_BASE_URL.
    pricing: async (prepared) => {
      const { modelPrice } = await start.sessionModules();
      const { settings } = prepared;
      const baseUrl = flags.baseUrl ?? settings.baseUrl ?? env.OPENAI_BASE_URL;
      return modelPrice({ modelId: prepared.modelId, baseUrl, overrides: settings.pricing });
    },
    projectHooks: flags.projectHooks,
    agentNamed: flags.agentName !== undefined,
    cwd,
    acaiHome: paths.home,
    historyFile: paths.replHistoryFile,
    env,
    ...(start.initialPrompt !== undefined ? { initialPrompt: start.initialPrompt } : {}),
  };
}

export function isCliStart(options: ReplOptions | ReplStartOptions): options is ReplStartOptions {
  return !("prepare" in options);
}
