import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/** A fresh temp folder per test (removed after it), and a writer for files in it. */
export function tempFolder(): {
  dir: () => string;
  write: (rel: string, text: string, mode?: number) => Promise<string>;
} {
  let dir = "";
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "acai-project-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  return {
    dir: () => dir,
    write: async (rel, text, mode) => {
      const file = path.join(dir, rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      if (mode !== undefined) await chmod(file, mode);
      return file;
    },
  };
}
