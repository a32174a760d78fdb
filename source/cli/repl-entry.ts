import { EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import type { MainOptions } from "./main-options.js";
import { sessionFlags } from "./session-flags.js";

/** Loads the REPL (ink, React) only now, so that `acai -p` never pays for it. */
export async function startReplOrExplain(io: CliIo, options: MainOptions): Promise<number> {
  if (!io.stdoutIsTTY) {
    io.stderr.write(
      'acai: the interactive REPL needs a terminal on stdout. Run a prompt headless instead: acai -p "your prompt" (see acai --help).\n',
    );
    return EXIT.usage;
  }
  const { startRepl } = await import("../repl/start.js");
  return startRepl({
    cwd: io.cwd,
    env: io.env,
    homeDir: io.homeDir,
    flags: sessionFlags(options),
    sessionModules: () => import("./session-entry.js"),
    ...(options.prompt ? { initialPrompt: options.prompt } : {}),
  });
}
