import { EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import type { MainOptions } from "./program.js";
import type { SessionFlags } from "./session-types.js";

/** Options handed to `startRepl` from `source/repl/start.tsx`. */
export interface ReplStartOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  flags: SessionFlags;
  initialPrompt?: string;
}

type StartRepl = (options: ReplStartOptions) => Promise<number>;

/** Loads the REPL (ink, React) only now, so that `acai -p` never pays for it. */
export async function startReplOrExplain(io: CliIo, options: MainOptions): Promise<number> {
  const specifier = "../repl/start.js";
  let startRepl: StartRepl | undefined;
  try {
    const mod = (await import(specifier)) as { startRepl?: StartRepl };
    startRepl = mod.startRepl;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ERR_MODULE_NOT_FOUND") throw error;
  }
  if (!startRepl) {
    io.stderr.write(
      'acai: the interactive REPL is not available in this build. Run a prompt headless instead: acai -p "your prompt" (see acai --help).\n',
    );
    return EXIT.usage;
  }
  return startRepl({
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    flags: sessionFlags(options),
    ...(options.prompt ? { initialPrompt: options.prompt } : {}),
  });
}

export function sessionFlags(options: MainOptions): SessionFlags {
  return {
    ...(options.model ? { model: options.model } : {}),
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}),
    projectHooks: options.projectHooks,
    assumeYes: options.yes,
  };
}
