/**
 * Where the project is, what it controls, and whether the user trusts exactly
 * that — found without running anything of the project. `acai -p`, the REPL's
 * trust screen, `acai hooks trust` and `acai hooks list` all start here, so
 * they agree on the root, the set and the verdict.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { ConfirmedEnv } from "../config/env-confirmation.js";
import {
  type LoadSettingsOptions,
  loadSettings,
  settingsLocations,
} from "../config/load-settings.js";
import { type AcaiPaths, resolveAcaiPaths } from "../config/paths.js";
import { type LoadedSettings, SettingsError } from "../config/settings.js";
import { describeUntrusted, type HookScan, scanHookSources } from "../hooks/discover/registry.js";
import {
  settingsHooksEventError,
  settingsHooksTypeError,
} from "../hooks/discover/sources/settings-section.js";
import { getProjectTrust, type TrustRecord, trustProject } from "../hooks/discover/trust.js";
import { collectServers, projectNameClash } from "../mcp/config.js";
import { projectChanges } from "../project/changes.js";
import { trustedLinks } from "../project/links.js";
import { findProjectRoot, type ProjectRoot } from "../project/root.js";
import type { ProjectReview, ProjectSettingsSummary, UntrustedHookInfo } from "./types.js";

export interface AssessProjectOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  /** False (`--no-project`): the project's settings files are not even read. */
  includeProject?: boolean;
}

export type ProjectStatus = "nothing" | "trusted" | "untrusted";

export interface ProjectAssessment {
  paths: AcaiPaths;
  root: ProjectRoot;
  loaded: LoadedSettings;
  scan: HookScan;
  status: ProjectStatus;
  /** Project settings files that exist but were not read (`includeProject: false`). */
  unreadSettings: string[];
  /** What an untrusted project shows; built when first read for a trusted one (`acai -p` never reads it). */
  readonly review: ProjectReview;
  /** The describe `env` requests the user confirmed for this exact set (none unless trusted). */
  confirmedEnv: ConfirmedEnv;
  /** Records trust for exactly the current set; refuses a set that cannot be hashed completely. */
  trust(): Promise<void>;
}

class UnhashableProjectError extends Error {
  override readonly name = "UnhashableProjectError";
}

export async function assessProject(options: AssessProjectOptions): Promise<ProjectAssessment> {
  const paths = resolveAcaiPaths({ env: options.env, homeDir: options.homeDir, cwd: options.cwd });
  const root = findProjectRoot({ cwd: options.cwd, acaiHome: paths.home });
  const loaded = await loadCheckedSettings({
    acaiHome: paths.home,
    projectDir: root.dir,
    homeDir: options.homeDir,
    includeProject: options.includeProject !== false,
  });
  const scan = await scanHookSources({
    projectDir: root.dir,
    acaiHome: paths.home,
    homeDir: options.homeDir,
    settingsFiles: loaded.settingsFiles,
  });
  const manifest = scan.projectManifest;
  const where = { acaiHome: paths.home, projectDir: root.dir };
  const record = manifest.fingerprint === null ? undefined : await getProjectTrust(where);
  const status: ProjectStatus =
    manifest.fingerprint === null
      ? "nothing"
      : manifest.incomplete === undefined && record?.fingerprint === manifest.fingerprint
        ? "trusted"
        : "untrusted";
  const buildReview = () => projectReview(scan, loaded, root.dir, record);
  // Only what is not trusted is shown: a trusted project's review is built if something asks.
  let review = status === "trusted" ? undefined : buildReview();
  const unreadSettings =
    options.includeProject === false
      ? settingsLocations({ acaiHome: paths.home, projectDir: root.dir, homeDir: options.homeDir })
          .filter((location) => location.scope === "project" && existsSync(location.path))
          .map((location) => location.path)
      : [];
  return {
    paths,
    root,
    loaded,
    scan,
    status,
    unreadSettings,
    get review() {
      review ??= buildReview();
      return review;
    },
    confirmedEnv: status === "trusted" ? (record?.env ?? {}) : {},
    trust: async () => {
      if (manifest.fingerprint === null) return;
      if (manifest.incomplete !== undefined) {
        throw new UnhashableProjectError(`This project cannot be trusted: ${manifest.incomplete}.`);
      }
      await trustProject({
        ...where,
        fingerprint: manifest.fingerprint,
        entries: manifest.entries,
      });
    },
  };
}

/** What the user reviews before trusting: the hooks, settings, changes and links of the set. */
function projectReview(
  scan: HookScan,
  loaded: LoadedSettings,
  root: string,
  record: TrustRecord | undefined,
): ProjectReview {
  const manifest = scan.projectManifest;
  return {
    root,
    items: describeUntrusted(scan).map(toUntrustedInfo),
    settings: summarizeSettings(loaded, root),
    changes: projectChanges(manifest.entries, record),
    links: trustedLinks(manifest.entries, root),
    mcpNameClashes: mcpNameClashes(loaded, root),
    ...(manifest.incomplete !== undefined ? { incomplete: manifest.incomplete } : {}),
  };
}

/**
 * Loads the settings files; a `hooks` field that is not an object is a bad
 * settings file (SettingsError: exit 2, naming the file and the field), as the
 * loader does for other fields, rather than a broken (and untrusted) hook.
 */
async function loadCheckedSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const loaded = await loadSettings(options);
  for (const file of loaded.settingsFiles) {
    const problem = settingsHooksTypeError(file) ?? settingsHooksEventError(file);
    if (problem !== undefined) throw new SettingsError(file.path, problem);
  }
  return loaded;
}

/** What the review says of project MCP servers a user server's name keeps from starting. */
function mcpNameClashes(loaded: LoadedSettings, projectDir: string): string[] {
  const { refused } = collectServers({
    settingsFiles: loaded.settingsFiles,
    projectDir,
    includeProject: true,
  });
  return refused.map(({ project, user }) => projectNameClash(project, user));
}

function summarizeSettings(loaded: LoadedSettings, root: string): ProjectSettingsSummary[] {
  return loaded.settingsFiles
    .filter((file) => file.scope === "project")
    .map((file) => {
      const { model, baseUrl, ...rest } = file.values;
      const other = Object.entries(rest).flatMap(([key, value]) =>
        value !== null && typeof value === "object" && !Array.isArray(value)
          ? Object.entries(value).map(([inner, v]) => `${key}.${inner}=${JSON.stringify(v)}`)
          : [`${key}=${JSON.stringify(value)}`],
      );
      if (file.hooks !== undefined) other.push("hooks (listed above)");
      return {
        file: path.relative(root, file.path) || file.path,
        ...(model !== undefined ? { model } : {}),
        ...(baseUrl !== undefined ? { baseUrl } : {}),
        other,
      };
    });
}

function toUntrustedInfo(hook: ReturnType<typeof describeUntrusted>[number]): UntrustedHookInfo {
  return {
    ...(hook.sourceKind === "tool" ? { kind: "tool" as const } : {}),
    name: hook.name,
    file: hook.file,
    events: hook.events,
    command: hook.command,
    ...(hook.matcher !== undefined ? { matcher: hook.matcher } : {}),
    ...(hook.note !== undefined ? { note: hook.note } : {}),
    ...(hook.problem !== undefined ? { problem: hook.problem } : {}),
    ...(hook.env !== undefined ? { env: hook.env } : {}),
    ...(hook.sandbox !== undefined ? { sandbox: hook.sandbox } : {}),
  };
}
