import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * A fresh project folder per test, and a writer for files in it. The project is
 * `project/` inside a temp folder of the test's own (removed after it), so a file
 * written "outside the project" (`../outside`) stays in that temp folder, not in
 * the shared temp directory where other runs would see it.
 */
export function tempFolder(): {
  dir: () => string;
  write: (rel: string, text: string, mode?: number) => Promise<string>;
} {
  let root = "";
  const projectDir = () => path.join(root, "project");
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "acai-project-"));
    await mkdir(projectDir());
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  return {
    dir: projectDir,
    write: async (rel, text, mode) => {
      const file = path.join(projectDir(), rel);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, text);
      if (mode !== undefined) await chmod(file, mode);
      return file;
    },
  };
}
