import path from "node:path";
import type { ProcessRunner } from "../process/types.js";
import { commandPaths } from "../project/command-paths.js";
import { buildProjectManifest, type ProjectManifest } from "../project/manifest.js";
import { executablesIn, projectToolsDir } from "../tools/dynamic.js";
import type {
  BrokenHook,
  HookDefinition,
  HookEventName,
  HookMatcher,
  HookSourceKind,
} from "./definition.js";
import { compareHooks } from "./match.js";
import { MetadataCache } from "./metadata-cache.js";
import {
  CACHED_FAILURE_NOTE,
  type ExecutableCandidate,
  executableDefinition,
  findExecutables,
  loadExecutables,
} from "./sources/executables.js";
import { realpathOrSelf, ScanReader } from "./sources/files.js";
import { findHookMds, type HookMdCandidate, hookMdDefinition } from "./sources/hook-md.js";
import {
  hasSettingsHooks,
  loadSettingsHooks,
  parseSettingsHooks,
  type SettingsHookFile,
} from "./sources/settings.js";

export type { SettingsHookFile } from "./sources/settings.js";

export interface ScanOptions {
  projectDir: string;
  acaiHome: string;
  homeDir: string;
  /**
   * Settings files that exist, with their raw `hooks`, a digest of their text
   * and what else they set (user files first).
   */
  settingsFiles: (SettingsHookFile & { digest?: string; values?: object })[];
}

/** Every hook file and setting found, nothing run yet. */
export interface HookScan {
  projectDir: string;
  acaiHome: string;
  homeDir: string;
  executables: ExecutableCandidate[];
  hookMds: HookMdCandidate[];
  /** Only files whose `hooks` section is non-empty. */
  settingsFiles: SettingsHookFile[];
  /** Problems visible without running anything (a script missing `chmod +x`, ...). */
  broken: BrokenHook[];
  /** Dynamic tools in `<project>/.acai/tools/`: project code too, trusted with the hooks. */
  projectTools: string[];
  /**
   * Everything the project controls (project/manifest.ts): every file under
   * its `.acai/hooks/`, `.agents/hooks/` and `.acai/tools/` (through links),
   * its settings files as a whole, interpreters and scripts they name.
   */
  projectManifest: ProjectManifest;
  /** The manifest's hash; null when the project controls nothing acai uses. */
  projectFingerprint: string | null;
}

export interface HookRegistry {
  hooks: HookDefinition[];
  broken: BrokenHook[];
  /** Hooks that load, but not quite as written (a settings timeout clamped to acai's limits). */
  warnings: string[];
}

export interface LoadOptions {
  /** False until the user trusts the project's current hooks: then nothing of the project runs. */
  includeProject: boolean;
  runner: ProcessRunner;
  /** The parent environment (secrets are removed for describe). */
  env: Readonly<Record<string, string>>;
  acaiHome: string;
  projectDir: string;
  now?: () => number;
  describeConcurrency?: number;
  describeTimeoutMs?: number;
  /** Timeout of hooks that set none (settings `hookDefaults.timeoutMs`; default 30 000). */
  defaultTimeoutMs?: number;
  /** The same for project hooks (the project's own `hookDefaults`; default `defaultTimeoutMs`). */
  projectDefaultTimeoutMs?: number;
}

function hookDirs(options: ScanOptions) {
  return {
    projectAcai: path.join(options.projectDir, ".acai", "hooks"),
    projectAgents: path.join(options.projectDir, ".agents", "hooks"),
    userAcai: path.join(options.acaiHome, "hooks"),
    userAgents: path.join(options.homeDir, ".config", "agents", "hooks"),
    projectTools: projectToolsDir(options.projectDir),
    userTools: path.join(options.acaiHome, "tools"),
  };
}

export async function scanHookSources(options: ScanOptions): Promise<HookScan> {
  const projectDir = path.resolve(options.projectDir);
  const dirs = hookDirs({ ...options, projectDir });
  // Run from the home folder, the project's .acai/hooks is the user's own folder: it is user scope.
  const [projectAcaiReal, userAcaiReal, projectAgentsReal, userAgentsReal, ...toolsReal] =
    await Promise.all(
      [
        dirs.projectAcai,
        dirs.userAcai,
        dirs.projectAgents,
        dirs.userAgents,
        dirs.projectTools,
        dirs.userTools,
      ].map(realpathOrSelf),
    );
  const projectHookDirs = [
    projectAcaiReal !== userAcaiReal ? dirs.projectAcai : undefined,
    projectAgentsReal !== userAgentsReal ? dirs.projectAgents : undefined,
  ].filter((d): d is string => d !== undefined);
  const projectToolsOwn = toolsReal[0] !== toolsReal[1];

  const broken: BrokenHook[] = [];
  const reader = new ScanReader();
  // Read (never written) here so describeUntrusted can show known metadata without running anything.
  const cacheLoad = MetadataCache.load(options.acaiHome);
  const toolsFound = projectToolsOwn ? executablesIn(dirs.projectTools) : Promise.resolve([]);
  const [userExecutables, projectExecutables, ...mdLists] = await Promise.all([
    findExecutables(reader, dirs.userAcai, "user", broken),
    projectHookDirs.includes(dirs.projectAcai)
      ? findExecutables(reader, dirs.projectAcai, "project", broken)
      : [],
    findHookMds(reader, dirs.userAcai, "user"),
    findHookMds(reader, dirs.userAgents, "user"),
    ...projectHookDirs.map((dir) => findHookMds(reader, dir, "project")),
  ]);
  const hookMds = mdLists.flat();
  const projectTools = await toolsFound;
  const cache = await cacheLoad;
  for (const candidate of projectExecutables) {
    const cached = cache.lookup(candidate);
    if (cached?.ok) candidate.cachedMetadata = { metadata: cached.metadata };
    else if (cached !== undefined) candidate.cachedFailure = cached.reason;
  }
  const executables = [...userExecutables, ...projectExecutables];
  const settingsFiles = [...options.settingsFiles]
    .filter((file) => hasSettingsHooks(file.hooks))
    .sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "user" ? -1 : 1));

  const projectSettings = options.settingsFiles.filter((file) => file.scope === "project");
  const hasProjectContent =
    projectExecutables.length > 0 ||
    hookMds.some((md) => md.scope === "project") ||
    projectSettings.some(setsSomething) ||
    broken.some((b) => b.scope === "project") ||
    projectTools.length > 0;
  const projectManifest: ProjectManifest = hasProjectContent
    ? buildProjectManifest({
        projectDir,
        trees: [...projectHookDirs, ...(projectToolsOwn ? [dirs.projectTools] : [])],
        settingsFiles: projectSettings.map((file) => ({
          path: path.resolve(projectDir, file.path),
          ...(file.digest !== undefined ? { digest: file.digest } : {}),
        })),
        commandPaths: projectSettings.flatMap((file) =>
          parseSettingsHooks(file).items.flatMap((item) =>
            commandPaths(item.entry.command, projectDir),
          ),
        ),
      })
    : { entries: [], fingerprint: null };
  return {
    projectDir,
    acaiHome: options.acaiHome,
    homeDir: options.homeDir,
    executables,
    hookMds,
    settingsFiles,
    broken,
    projectTools,
    projectManifest,
    projectFingerprint: projectManifest.fingerprint,
  };
}

/** A project settings file that sets nothing (`{}`) asks for no trust; one that sets anything does. */
function setsSomething(file: { hooks: unknown; values?: object }): boolean {
  return (
    file.hooks !== undefined || file.values === undefined || Object.keys(file.values).length > 0
  );
}

/**
 * Describes (cache first) and validates what the scan found, in the scopes
 * included. With `includeProject: false` no project file is executed, not even
 * for `describe`.
 */
export async function loadHookRegistry(
  scan: HookScan,
  options: LoadOptions,
): Promise<HookRegistry> {
  const included = (scope: "user" | "project"): boolean =>
    scope === "user" || options.includeProject;
  const projectDir = path.resolve(options.projectDir);
  const cache = await MetadataCache.load(options.acaiHome);
  // A project's hookDefaults reach its own hooks only: the user's guards keep theirs.
  const timeoutFor = (scope: "user" | "project"): number | undefined =>
    scope === "project"
      ? (options.projectDefaultTimeoutMs ?? options.defaultTimeoutMs)
      : options.defaultTimeoutMs;
  const describe = (scope: "user" | "project") => {
    const defaultTimeoutMs = timeoutFor(scope);
    return loadExecutables(
      scan.executables.filter((c) => c.scope === scope && included(c.scope)),
      {
        runner: options.runner,
        env: options.env,
        projectDir,
        cache,
        now: options.now ?? Date.now,
        ...(options.describeConcurrency !== undefined
          ? { concurrency: options.describeConcurrency }
          : {}),
        ...(options.describeTimeoutMs !== undefined
          ? { describeTimeoutMs: options.describeTimeoutMs }
          : {}),
        ...(defaultTimeoutMs !== undefined ? { defaultTimeoutMs } : {}),
      },
    );
  };
  const [userExecutables, projectExecutables] = await Promise.all([
    describe("user"),
    describe("project"),
  ]);
  const executables = {
    hooks: [...userExecutables.hooks, ...projectExecutables.hooks],
    broken: [...userExecutables.broken, ...projectExecutables.broken],
  };
  const hooks: HookDefinition[] = [...executables.hooks];
  const broken: BrokenHook[] = [
    ...scan.broken.filter((b) => included(b.scope)),
    ...executables.broken,
  ];
  for (const md of scan.hookMds) {
    if (!included(md.scope)) continue;
    const result = hookMdDefinition(md, projectDir, timeoutFor(md.scope));
    if ("launch" in result) hooks.push(result);
    else broken.push(result);
  }
  const settings = loadSettingsHooks(
    scan.settingsFiles.filter((file) => included(file.scope)),
    projectDir,
    timeoutFor,
  );
  hooks.push(...settings.hooks);
  broken.push(...settings.broken);
  hooks.sort(compareHooks);
  broken.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { hooks, broken, warnings: settings.warnings };
}

/** What the trust prompt shows about a project hook (or dynamic tool), found without running it. */
export interface UntrustedHook {
  sourceKind: HookSourceKind | "tool";
  file: string;
  name: string;
  /** Empty when not known yet (an executable never described) or broken. */
  events: HookEventName[];
  /** Readable matcher: the Claude Code string for settings, `tool=Bash command=rm` otherwise. */
  matcher?: string;
  /** The shell command (settings) or the program that would run. */
  command: string;
  description?: string;
  /** "not described yet" for an executable without current cached metadata. */
  note?: string;
  /** Why it would not load. */
  problem?: string;
  /** Secret-looking variables it asks to receive, when known without running it. */
  env?: string[];
}

function matcherText(matcher: HookMatcher): string | undefined {
  const text = Object.entries(matcher)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${String(value)}`)
    .join(" ");
  return text === "" ? undefined : text;
}

function fromDefinition(def: HookDefinition | BrokenHook, command: string): UntrustedHook {
  const base = { sourceKind: def.sourceKind, file: def.file, command };
  if (!("launch" in def)) {
    return { ...base, name: def.name ?? path.basename(def.file), events: [], problem: def.reason };
  }
  const hook: UntrustedHook = { ...base, name: def.name, events: def.events };
  if (def.env.length > 0) hook.env = [...def.env];
  const matcher = matcherText(def.matcher);
  if (matcher !== undefined) hook.matcher = matcher;
  if (def.description !== undefined) hook.description = def.description;
  return hook;
}

/**
 * The project's hooks, for the user to decide on. Runs nothing: executables
 * show the metadata cached for their exact current content, if any.
 */
export function describeUntrusted(scan: HookScan): UntrustedHook[] {
  const result: UntrustedHook[] = [];
  for (const candidate of scan.executables) {
    if (candidate.scope !== "project") continue;
    if (candidate.cachedMetadata === undefined) {
      result.push({
        sourceKind: "executable",
        file: candidate.path,
        name: path.basename(candidate.path),
        events: [],
        command: candidate.path,
        ...(candidate.cachedFailure !== undefined
          ? { problem: `${candidate.cachedFailure} ${CACHED_FAILURE_NOTE}` }
          : { note: "not described yet" }),
      });
      continue;
    }
    const def = executableDefinition(candidate, candidate.cachedMetadata.metadata, scan.projectDir);
    result.push(fromDefinition(def, candidate.path));
  }
  for (const md of scan.hookMds) {
    if (md.scope !== "project") continue;
    const command = md.script?.path ?? path.join(md.dir, "scripts", "run*");
    result.push(fromDefinition(hookMdDefinition(md, scan.projectDir), command));
  }
  for (const file of scan.settingsFiles) {
    if (file.scope !== "project") continue;
    const parsed = parseSettingsHooks(file);
    for (const item of parsed.items) {
      const hook: UntrustedHook = {
        sourceKind: "settings",
        file: item.file,
        name: item.entry.name ?? item.location,
        events: [item.event],
        command: item.entry.command,
      };
      const env = (item.entry as { env?: unknown }).env;
      if (Array.isArray(env) && env.length > 0) hook.env = env.map(String);
      if (item.matcher !== undefined && item.matcher.trim() !== "") hook.matcher = item.matcher;
      result.push(hook);
    }
    for (const bad of parsed.broken) result.push(fromDefinition(bad, ""));
  }
  for (const bad of scan.broken) {
    if (bad.scope === "project") result.push(fromDefinition(bad, bad.file));
  }
  for (const file of scan.projectTools) {
    result.push({
      sourceKind: "tool",
      file,
      name: path.basename(file),
      events: [],
      command: file,
      note: "a dynamic tool, not a hook: TOOL_ACTION=describe runs at start",
    });
  }
  return result;
}
