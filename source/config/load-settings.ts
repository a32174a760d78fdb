/**
 * Finding and loading the settings files of a session, in load order (a
 * later file wins): Claude Code's user file, acai's user file, Claude Code's
 * project files, acai's project files. Claude Code's files are read as the
 * acai settings they stand for (claude-settings.ts) unless acai's own files
 * say `"claudeSettings": false`.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import { translateClaudeSettings } from "./claude-settings.js";
import { resolveProjectPaths } from "./paths.js";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "./read-regular-file.js";
import {
  deepMerge,
  type LoadedSettings,
  parseSettingsObject,
  parseSettingsText,
  type Settings,
  SettingsError,
  type SettingsFile,
  type SettingsScope,
} from "./settings.js";

export interface LoadSettingsOptions {
  acaiHome: string;
  projectDir: string;
  /** Where `~/.claude` is (default: the parent of ACAI_HOME's default, i.e. none: Claude Code's files are not read). */
  homeDir?: string;
  /** False: the project's files are not even read (running with none of the project). Default true. */
  includeProject?: boolean;
}

/** Who wrote the file's shape: acai, or Claude Code (read through claude-settings.ts). */
type SettingsDialect = "acai" | "claude";

export interface SettingsLocation {
  path: string;
  scope: SettingsScope;
  dialect: SettingsDialect;
}

/** Locations in load order; a later file wins. */
export function settingsLocations(options: LoadSettingsOptions): SettingsLocation[] {
  const project = resolveProjectPaths(options.projectDir);
  const claude = (file: string, scope: SettingsScope): SettingsLocation[] =>
    options.homeDir === undefined ? [] : [{ path: file, scope, dialect: "claude" }];
  const home = options.homeDir ?? "";
  return [
    ...claude(path.join(home, ".claude", "settings.json"), "user"),
    { path: path.join(options.acaiHome, "settings.json"), scope: "user", dialect: "acai" },
    ...claude(path.join(project.root, ".claude", "settings.json"), "project"),
    ...claude(path.join(project.root, ".claude", "settings.local.json"), "project"),
    { path: project.settingsFile, scope: "project", dialect: "acai" },
    { path: project.localSettingsFile, scope: "project", dialect: "acai" },
  ];
}

interface ReadFile {
  location: SettingsLocation;
  text: string;
  settings: Settings;
  warnings: string[];
}

export async function loadSettings(options: LoadSettingsOptions): Promise<LoadedSettings> {
  const wanted = settingsLocations(options).filter(
    (location) => location.scope === "user" || options.includeProject !== false,
  );
  const acai = wanted.filter((location) => location.dialect === "acai").map(readOne);
  const claudeOn = acai.every((file) => file?.settings.claudeSettings !== false);
  const files = wanted
    .map((location) =>
      location.dialect === "acai"
        ? acai.find((file) => file?.location === location)
        : claudeOn
          ? readOne(location)
          : undefined,
    )
    .filter((file): file is ReadFile => file !== undefined);
  return mergeFiles(files);
}

function readOne(location: SettingsLocation): ReadFile | undefined {
  const text = readSettingsText(location.path);
  if (text === undefined) return undefined;
  if (location.dialect === "acai")
    return { location, text, ...parseSettingsText(location.path, text) };
  const object = parseSettingsObject(location.path, text);
  return { location, text, ...translateClaudeSettings(location.path, object) };
}

function mergeFiles(files: readonly ReadFile[]): LoadedSettings {
  const settingsFiles: SettingsFile[] = [];
  const warnings: string[] = [];
  const merged: Record<SettingsScope | "all", Record<string, unknown>> = {
    all: {},
    user: {},
    project: {},
  };
  for (const { location, text, settings, warnings: said } of files) {
    warnings.push(...said);
    const { hooks, $schema: _schema, ...rest } = settings;
    const digest = createHash("sha256").update(text).digest("hex");
    settingsFiles.push({
      path: location.path,
      scope: location.scope,
      hooks,
      digest,
      values: rest,
      ...(location.dialect === "claude" ? { dialect: "claude" as const } : {}),
    });
    merged.all = deepMerge(merged.all, rest);
    merged[location.scope] = deepMerge(merged[location.scope], rest);
  }
  return {
    settings: merged.all as LoadedSettings["settings"],
    user: merged.user as LoadedSettings["user"],
    project: merged.project as LoadedSettings["project"],
    settingsFiles,
    warnings,
  };
}

/**
 * The text of one settings file, or undefined when there is none. A project
 * writes these files, so they are read like any project file before trust:
 * only a regular file, opened without blocking (a link to `/dev/tty` or a FIFO
 * never waits), at most MAX_PROJECT_FILE_BYTES (a link to `/dev/zero` costs
 * nothing).
 */
function readSettingsText(file: string): string | undefined {
  const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
  if (read.ok) return read.data.toString("utf8");
  if (read.problem === "missing") return undefined;
  const fix =
    read.problem === "unreadable"
      ? "Fix its permissions or remove it."
      : "Make it a regular JSON file or remove it.";
  throw new SettingsError(file, `Cannot read settings file ${file}: ${read.reason}. ${fix}`);
}
