/**
 * Where a program is on a PATH: the first absolute folder holding it as an
 * executable file. Relative PATH entries are skipped — they would name a
 * folder of whatever the working directory is, such as a cloned repository.
 */
import { accessSync, constants, statSync } from "node:fs";
import path from "node:path";

export function findOnPath(
  name: string,
  pathVariable: string,
  isExecutable: (file: string) => boolean = executableFile,
): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (dir === "" || !path.isAbsolute(dir)) continue;
    const file = path.join(dir, name);
    if (isExecutable(file)) return file;
  }
  return undefined;
}

export function executableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
