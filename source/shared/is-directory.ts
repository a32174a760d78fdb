import { statSync } from "node:fs";

/** Whether `file` is a folder (links followed); false when it is missing or cannot be read. */
export function isDirectory(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
