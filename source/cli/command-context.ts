import type { CliIo } from "./io.js";

/**
 * Shared by every command module: the process's I/O and how to report an exit code.
 * Its own module so that `cli/commands/` depends on it, not on the program that loads them.
 */
export interface CommandContext {
  io: CliIo;
  setExitCode(code: number): void;
}
