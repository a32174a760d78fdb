/**
 * Shared by the containment-*.test.ts end-to-end tests: user-level hooks and
 * dynamic tools (no project trust involved) whose children escape their
 * process group — `setsid`, a daemon's double fork, `setpgid` — each with a
 * marker in its argv, so survivors can be counted in /proc.
 */
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AcaiDirs } from "../support/run-acai.js";

export const ESCAPE_KINDS = ["setsid", "daemon", "setpgid"] as const;

/** Shell lines that start the three kinds of escapee, each touching `<dir>/started-<label>-<kind>` first. */
export function escapees(marker: string, label: string, dir: string): string {
  const run = (kind: string) =>
    `touch ${dir}/started-${label}-${kind}; exec -a ${marker}-${label}-${kind} sleep 300`;
  return [
    `setsid bash -c "${run("setsid")}" </dev/null >/dev/null 2>&1 &`,
    `( ( setsid -f bash -c "${run("daemon")}" </dev/null >/dev/null 2>&1 ) & ) &`,
    `perl -e 'setpgrp(0,0); exec "bash", "-c", q{${run("setpgid")}}' </dev/null >/dev/null 2>&1 &`,
    // Wait (up to 10 s) until all three have left the group — each touches its file in its own
    // session or group — before the caller's process group is killed: a fixed pause was too short
    // for the daemon's chain of forks on a loaded machine, which then never started.
    `for _ in $(seq 200); do ${ESCAPE_KINDS.map((kind) => `[ -e ${dir}/started-${label}-${kind} ] &&`).join(" ")} break; sleep 0.05; done`,
  ].join("\n");
}

async function writeExecutable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

export interface UserHook {
  name: string;
  events: string[];
  /** Bash run when the hook fires (stdin already drained). Should print an answer or nothing. */
  body: string;
  /** Bash run on HOOK_ACTION=describe before the metadata is printed. */
  describeBody?: string;
  timeoutMs?: number;
  async?: boolean;
  matcher?: { tool?: string };
}

/** `<ACAI_HOME>/hooks/<name>`: a user hook (trusted by definition). */
export async function installUserHook(dirs: AcaiDirs, hook: UserHook): Promise<void> {
  const metadata = {
    name: hook.name,
    events: hook.events,
    timeout_ms: hook.timeoutMs ?? 10_000,
    ...(hook.async ? { async: true } : {}),
    ...(hook.matcher ? { matcher: hook.matcher } : {}),
  };
  await writeExecutable(
    path.join(dirs.acaiHome, "hooks", hook.name),
    [
      "#!/usr/bin/env bash",
      'if [ "$HOOK_ACTION" = describe ]; then',
      hook.describeBody ?? ":",
      `  echo '${JSON.stringify(metadata)}'`,
      "  exit 0",
      "fi",
      "cat >/dev/null",
      hook.body,
      "",
    ].join("\n"),
  );
}

/** `<ACAI_HOME>/tools/<name>`: a user dynamic tool taking no input. */
export async function installUserTool(
  dirs: AcaiDirs,
  name: string,
  body: string,
  describeBody = ":",
): Promise<void> {
  const metadata = { name, description: `test tool ${name}`, input_schema: { type: "object" } };
  await writeExecutable(
    path.join(dirs.acaiHome, "tools", name),
    [
      "#!/usr/bin/env bash",
      'if [ "$TOOL_ACTION" = describe ]; then',
      describeBody,
      `  echo '${JSON.stringify(metadata)}'`,
      "  exit 0",
      "fi",
      "cat >/dev/null",
      body,
      "",
    ].join("\n"),
  );
}

/**
 * `<ACAI_HOME>/settings.json` (user settings), with the OS sandbox off unless
 * `settings` says otherwise: these tests check the marker containment acai
 * keeps where there is no sandbox, and count processes and pids, which a PID
 * namespace and bwrap's own command line would change (the sandboxed cases
 * are test/e2e/sandbox*.test.ts).
 */
export async function writeUserSettings(
  dirs: AcaiDirs,
  settings: Record<string, unknown>,
): Promise<void> {
  const withMarkers = { sandbox: { enabled: false }, ...settings };
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(withMarkers));
}
