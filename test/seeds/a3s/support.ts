/**
 * Installing the A3S examples (test/seeds/a3s/plugins/) as a user would: a
 * TypeScript plugin in `~/.acai/plugins/` that imports `acai-agent/hooks`,
 * resolved through a `node_modules/acai-agent` beside the plugin folder (a
 * link to this repository, as an installed package would be).
 */
import { copyFile, mkdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AcaiDirs, REPO_ROOT } from "../../support/run-acai.js";

const PLUGINS = path.join(path.dirname(fileURLToPath(import.meta.url)), "plugins");

/** Copies the named examples into ACAI_HOME/plugins (user plugins: no trust needed). */
export async function installA3s(dirs: AcaiDirs, ...names: string[]): Promise<void> {
  const to = path.join(dirs.acaiHome, "plugins");
  await mkdir(to, { recursive: true });
  const modules = path.join(dirs.root, "node_modules");
  await mkdir(modules, { recursive: true });
  await symlink(REPO_ROOT, path.join(modules, "acai-agent")).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code !== "EEXIST") throw error;
    },
  );
  for (const name of names) await copyFile(path.join(PLUGINS, name), path.join(to, name));
}

/** The lines of a log file a plugin wrote ([] when it wrote none). */
export async function lines(file: string): Promise<string[]> {
  try {
    return (await readFile(file, "utf8")).split("\n").filter((line) => line !== "");
  } catch {
    return [];
  }
}
