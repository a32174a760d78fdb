/**
 * The interpreter a `#!` line names, when it is a file path rather than a
 * program looked up on PATH. A relative path is resolved against the project
 * root, the working directory of every hook (that is what the kernel does for
 * `#!./tools/interp`); `#!/usr/bin/env ./x` names `./x` the same way.
 */
import path from "node:path";

export function interpreterPath(firstLine: string, projectDir: string): string | undefined {
  if (!firstLine.startsWith("#!")) return undefined;
  const words = firstLine.slice(2).trim().split(/\s+/).filter(Boolean);
  const [program, ...rest] = words;
  if (program === undefined) return undefined;
  const named =
    path.basename(program) === "env" ? rest.find((word) => !word.startsWith("-")) : program;
  if (named === undefined || !named.includes("/")) return undefined;
  return path.resolve(projectDir, named);
}
