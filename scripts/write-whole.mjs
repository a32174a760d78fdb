// Writes a generated file whole: to a temporary file beside it, then renamed over it.
// `npm test` runs the build and the checks side by side, and both run
// generate-events.mjs (prebuild, pretypecheck): a reader sees the old text or the
// new, never a file cut short while the other writes it.
import { rename, writeFile } from "node:fs/promises";

/** Replaces `file` with `text` in one step (same folder, so one rename). */
export async function writeWhole(file, text) {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text);
  await rename(temporary, file);
}
