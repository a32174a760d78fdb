/**
 * The REPL's "yes, and don't ask again in this project": an allow rule added
 * to the project's `.acai/settings.local.json` (Claude Code keeps these in
 * `.claude/settings.local.json`), where the user can read and remove it.
 *
 * That file is part of the project's trusted set, so writing it changes the
 * set: trust is recorded again for the new set — only when the set is still
 * the one this session started with (nothing else changed meanwhile), and
 * carrying the secrets the user confirmed. A link or anything but a regular
 * file at `.acai/` or the settings file is refused: a cloned repository must
 * not turn this write into one elsewhere.
 */
import { resolveProjectPaths } from "../config/paths.js";
import { readSettingsObject, refusedTarget, writeSettingsObject } from "../config/settings-file.js";
import { manifestEntryPath } from "../hooks/discover/fingerprint.js";
import { getProjectTrust, recordConfirmedEnv } from "../hooks/discover/trust.js";
import type { ManifestEntry } from "../project/manifest.js";
import { assessProject } from "./assessment.js";

export interface ProjectRuleOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  /** The project set this session started with (null: the project controlled nothing). */
  startedWith: string | null;
}

export type ProjectRuleOutcome = { ok: true; file: string } | { ok: false; error: string };

/** Adds `rule` to `permissions.allow` of `.acai/settings.local.json` and trusts the set it makes. */
export async function addProjectAllowRule(
  rule: string,
  options: ProjectRuleOptions,
): Promise<ProjectRuleOutcome> {
  const before = await assessProject(options);
  const file = resolveProjectPaths(before.root.dir).localSettingsFile;
  if (before.scan.projectFingerprint !== options.startedWith) {
    return {
      ok: false,
      error: `the project's hooks, tools or settings changed since this session started, so ${file} was not written (run acai again and trust the project to keep rules there)`,
    };
  }
  if (before.status === "untrusted") {
    return { ok: false, error: `this project is not trusted, so ${file} was not written` };
  }
  const written = writeRule(file, rule);
  if (!written.ok) return written;
  const where = { acaiHome: before.paths.home, projectDir: before.root.dir };
  const record = await getProjectTrust(where);
  const after = await assessProject(options);
  const fingerprint = after.scan.projectFingerprint;
  if (fingerprint === null || !onlyFileChanged(before, after, file)) {
    return {
      ok: false,
      error: `${file} was written, but the project's files changed meanwhile: run acai again to review and trust them`,
    };
  }
  await after.trust();
  if (record?.env !== undefined)
    await recordConfirmedEnv({ ...where, fingerprint, env: record.env });
  return { ok: true, file };
}

type Assessed = Awaited<ReturnType<typeof assessProject>>;

/** Whether the two sets differ in `file` only. */
function onlyFileChanged(before: Assessed, after: Assessed, file: string): boolean {
  const root = before.root.dir;
  const others = (entries: readonly ManifestEntry[]) =>
    entries
      .filter((entry) => manifestEntryPath(root, entry.key) !== file)
      .map((entry) => `${entry.key}\u0000${entry.digest}`)
      .sort()
      .join("\n");
  return others(before.scan.projectManifest.entries) === others(after.scan.projectManifest.entries);
}

/** The settings file with the rule in `permissions.allow` (written only when it was not there). */
function writeRule(file: string, rule: string): ProjectRuleOutcome {
  const refused = refusedTarget(file);
  if (refused !== undefined)
    return { ok: false, error: `${refused}, so the rule was not written there` };
  const current = readSettingsObject(file);
  if (!current.ok) return current;
  const permissions = current.value.permissions ?? {};
  if (!isRecord(permissions))
    return { ok: false, error: `${file}: "permissions" is not an object` };
  const allow = permissions.allow ?? [];
  if (!Array.isArray(allow))
    return { ok: false, error: `${file}: "permissions.allow" is not a list` };
  if (allow.includes(rule)) return { ok: true, file };
  const next = { ...current.value, permissions: { ...permissions, allow: [...allow, rule] } };
  const written = writeSettingsObject(file, next, { refuseLinks: true });
  return written.ok ? { ok: true, file } : written;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
