/**
 * A hook file whose `#!` line is `#!/usr/bin/env NAME` — NAME a bare program
 * name, no options — runs as `NAME file args` (decision 0076): what `env`
 * execs after looking NAME up on the same PATH, without the exec of `env`
 * itself (one process start fewer per run). Only when the kernel would run
 * the file at all: it must be executable by this process. Anything else —
 * `env -S`, an assignment, a path, a carriage return, a line over the
 * kernel's 255 characters — is left to the kernel, as before.
 */
import { accessSync, constants } from "node:fs";

/** `#!`, then `/usr/bin/env`, then one bare name; blanks as the kernel skips them. */
const ENV_LINE = /^#![ \t]*\/usr\/bin\/env[ \t]+([A-Za-z0-9_][A-Za-z0-9_.+-]*)[ \t]*$/;
/** The kernel reads at most this much of a `#!` line (BINPRM_BUF_SIZE, with the `\n`). */
const MAX_LINE = 255;

/** NAME of the file's `#!/usr/bin/env NAME` line (its content `data`), or undefined. */
export function envInterpreterOf(data: Buffer): string | undefined {
  const newline = data.indexOf(10);
  if (newline < 0 || newline > MAX_LINE) return undefined;
  return ENV_LINE.exec(data.subarray(0, newline).toString("latin1"))?.[1];
}

/** The same, for a file whose content was read (`data`), when this process may execute it. */
export function envInterpreterOfFile(file: string, data: Buffer): string | undefined {
  const name = envInterpreterOf(data);
  if (name === undefined) return undefined;
  try {
    accessSync(file, constants.X_OK);
    return name;
  } catch {
    return undefined; // not executable: the kernel would refuse it, and so will the runner
  }
}
