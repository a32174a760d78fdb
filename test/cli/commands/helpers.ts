/** Helpers for the toolkit's CLI tests: temp projects, hook files, running the built CLI. */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { type AcaiDirs, type AcaiResult, makeAcaiDirs, runAcai } from "../../support/run-acai.js";

export { REPO_ROOT } from "../../support/run-acai.js";
export type { AcaiDirs, AcaiResult };

export async function tempProject(): Promise<AcaiDirs> {
  return makeAcaiDirs("acai-toolkit-");
}

/** Writes an executable file (mode 755), creating folders. */
export async function writeExecutable(file: string, text: string): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
  return file;
}

/** A bash executable hook in the project's `.acai/hooks/` with the given metadata and body. */
export async function projectHook(
  dirs: AcaiDirs,
  name: string,
  metadata: Record<string, unknown>,
  body: string,
): Promise<string> {
  return writeExecutable(path.join(dirs.cwd, ".acai", "hooks", name), bashHook(metadata, body));
}

/** The same in the user's `$ACAI_HOME/hooks/` (trusted without asking). */
export async function userHook(
  dirs: AcaiDirs,
  name: string,
  metadata: Record<string, unknown>,
  body: string,
): Promise<string> {
  return writeExecutable(path.join(dirs.acaiHome, "hooks", name), bashHook(metadata, body));
}

function bashHook(metadata: Record<string, unknown>, body: string): string {
  return `#!/usr/bin/env bash
if [ "$HOOK_ACTION" = describe ]; then
  cat <<'JSON'
${JSON.stringify(metadata)}
JSON
  exit 0
fi
${body}
`;
}

export function acai(
  dirs: AcaiDirs,
  args: readonly string[],
  options: {
    env?: Record<string, string | undefined>;
    stdin?: string;
    timeoutMs?: number;
    baseUrl?: string;
  } = {},
): Promise<AcaiResult> {
  return runAcai({ dirs, args, ...options });
}
