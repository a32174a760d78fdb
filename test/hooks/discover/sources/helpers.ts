import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runProcess } from "../../../../source/process/runner.js";
import type { ProcessRunner, RunOptions } from "../../../../source/process/types.js";

export interface Sandbox {
  root: string;
  projectDir: string;
  acaiHome: string;
  homeDir: string;
  /** A file that hooks touch when they are run at all. */
  marker: string;
  cleanup(): Promise<void>;
}

export async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(path.join(os.tmpdir(), "acai-hook-sources-")));
  const projectDir = path.join(root, "project");
  const homeDir = path.join(root, "home");
  const acaiHome = path.join(homeDir, ".acai");
  await mkdir(projectDir, { recursive: true });
  await mkdir(acaiHome, { recursive: true });
  return {
    root,
    projectDir,
    acaiHome,
    homeDir,
    marker: path.join(root, "ran"),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export async function writeFileIn(file: string, content: string, mode = 0o644): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, content);
  await chmod(file, mode);
  return file;
}

/**
 * A bash hook that prints `metadata` for describe; whenever it runs at all it
 * appends its name to `marker` (when given), so tests can prove it never ran.
 */
export function describeScript(metadata: unknown, marker?: string): string {
  const json = typeof metadata === "string" ? metadata : JSON.stringify(metadata);
  return [
    "#!/usr/bin/env bash",
    marker ? `echo "$0 $HOOK_ACTION" >> '${marker}'` : "",
    'if [ "$HOOK_ACTION" = describe ]; then',
    `  cat <<'JSON'\n${json}\nJSON`,
    "  exit 0",
    "fi",
    "cat >/dev/null",
    "exit 0",
    "",
  ].join("\n");
}

export async function writeHook(
  dir: string,
  name: string,
  metadata: unknown,
  marker?: string,
): Promise<string> {
  return writeFileIn(path.join(dir, name), describeScript(metadata, marker), 0o755);
}

/** The real runner, counting calls. */
export function countingRunner(): { runner: ProcessRunner; calls: RunOptions[] } {
  const calls: RunOptions[] = [];
  const runner: ProcessRunner = (options) => {
    calls.push(options);
    return runProcess(options);
  };
  return { runner, calls };
}

export const baseEnv: Readonly<Record<string, string>> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  HOME: os.homedir(),
};
