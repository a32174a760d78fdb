import os from "node:os";
import { dropBlankBaseUrls } from "../config/base-url.js";
import { processContainment } from "../process/containment.js";
import { definedEnv } from "../shared/defined-env.js";
import { packageVersion } from "../shared/package-version.js";
import type { CommandContext } from "./command-context.js";
import { formatUnexpected } from "./errors.js";
import { EXIT } from "./exit-codes.js";
import type { CliIo } from "./io.js";
import type { MainOptions } from "./main-options.js";
import { runProgram } from "./program.js";

async function main(options: MainOptions, ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  if (options.print !== undefined || !io.stdinIsTTY) {
    const { runHeadless } = await import("./session-entry.js");
    return runHeadless(io, options);
  }
  const { startReplOrExplain } = await import("./repl-entry.js");
  return startReplOrExplain(io, options);
}

/** Runs acai with the real process's I/O and sets its exit code. */
export async function runFromProcess(): Promise<void> {
  // Before any model module loads: `OPENAI_BASE_URL=""` means unset, not a broken URL.
  dropBlankBaseUrls(process.env);
  // The AI SDK would print provider warnings raw on stderr ("(node:123) Warning: …", which
  // also tears through the REPL's screen). The agent reports them itself, once each, as
  // `warning` events that -p and the REPL show like any other warning.
  (globalThis as { AI_SDK_LOG_WARNINGS?: unknown }).AI_SDK_LOG_WARNINGS = false;
  const io: CliIo = {
    argv: process.argv,
    cwd: process.cwd(),
    env: definedEnv(process.env),
    homeDir: os.homedir(),
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    stdinIsTTY: process.stdin.isTTY === true,
    stdoutIsTTY: process.stdout.isTTY === true,
    version: packageVersion(),
    onSignal(signal, handler) {
      process.on(signal, handler);
      return () => process.off(signal, handler);
    },
    forceExit(code) {
      // Whatever still runs (a TERM-trapping hook, a session_end hook past the wind-down) dies first.
      processContainment().sweepAll();
      process.exit(code);
    },
  };

  // Last line of defence: whatever escapes the handlers still ends as one line, never a stack trace.
  const crash = (error: unknown) => {
    process.stderr.write(`acai: error: ${formatUnexpected(error, io.env.ACAI_DEBUG === "1")}\n`);
    process.exit(EXIT.error);
  };
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);

  // A closed stdout (e.g. `acai -p ... | head -1`) must not crash with EPIPE.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? EXIT.ok);
  });

  const code = await runProgram({ io, setExitCode: () => {} }, { main });
  // Nothing acai started outlives it: children that left their process group (setsid,
  // double fork) are found by their marker. `process.on("exit")` sweeps again for the
  // exits that do not come this way; the watchdog sweeps if acai is killed outright.
  processContainment().sweepAll();
  process.exitCode = code;
}
