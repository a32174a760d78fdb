import { EXIT, type ExitCode } from "./exit-codes.js";

/** An error whose message is written for the user and which maps to an exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode: ExitCode,
  ) {
    super(message);
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** One line (or paragraph) for an unexpected error; the stack only with ACAI_DEBUG=1. */
export function formatUnexpected(error: unknown, debug: boolean): string {
  if (debug && error instanceof Error && error.stack) return error.stack;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split("\n", 1)[0] ?? message;
  return `${firstLine}${debug ? "" : " (set ACAI_DEBUG=1 for details)"}`;
}
