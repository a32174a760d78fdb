/**
 * Shared by the bounded-*.test.ts end-to-end tests: user-level settings hooks
 * (in ACAI_HOME/settings.json, so no project trust is involved), the audit
 * log, and the session's stream-json lines.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AcaiDirs } from "../support/run-acai.js";

export interface UserHook {
  name: string;
  event: string;
  /** The program that runs (a script with a #! line). */
  script: string;
  matcher?: string;
  failure?: "open" | "closed";
  async?: boolean;
  priority?: number;
}

/** Writes each hook's script under `<root>/scripts` and the user's settings.json with them (and `hookDefaults`). */
export async function installUserHooks(
  dirs: AcaiDirs,
  hooks: UserHook[],
  hookDefaults?: Record<string, number>,
): Promise<void> {
  const scripts = path.join(dirs.root, "scripts");
  await mkdir(scripts, { recursive: true });
  const byEvent: Record<string, unknown[]> = {};
  for (const hook of hooks) {
    const file = path.join(scripts, `${hook.name}.sh`);
    await writeFile(file, hook.script);
    await chmod(file, 0o755);
    const list = byEvent[hook.event] ?? [];
    list.push({
      ...(hook.matcher ? { matcher: hook.matcher } : {}),
      hooks: [
        {
          type: "command",
          command: `'${file}'`,
          name: hook.name,
          failure: hook.failure ?? "open",
          async: hook.async ?? false,
          priority: hook.priority ?? 100,
          timeout: 10,
        },
      ],
    });
    byEvent[hook.event] = list;
  }
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({ hooks: byEvent, ...(hookDefaults ? { hookDefaults } : {}) }, null, 2),
  );
}

/** A hook script that reads its stdin and prints the file `answerFile` as its answer. */
export function printsFile(answerFile: string): string {
  return `#!/bin/sh\ncat >/dev/null\ncat '${answerFile}'\n`;
}

export interface AuditLine {
  hook: string;
  event: string;
  decision: string;
  effect?: string;
  error?: string;
  reason?: string;
  async: boolean;
}

export async function auditLines(dirs: AcaiDirs): Promise<AuditLine[]> {
  const file = path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl");
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as AuditLine);
}
