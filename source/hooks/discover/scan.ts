/**
 * Finding hooks without running any (hooks.md §2): executables, HOOK.md
 * folders and settings hooks in the user's and the project's folders, and the
 * manifest of everything the project controls (what trust covers).
 */
import path from "node:path";
import { hasMcpJson, mcpJsonPath } from "../../mcp/config.js";
import { commandPaths } from "../../project/command-paths.js";
import { projectInstructionFile } from "../../project/instructions.js";
import { buildProjectManifest, type ProjectManifest } from "../../project/manifest.js";
import type { PinnedFile } from "../../project/pins.js";
import { agentFilesIn, projectAgentsDir } from "../../subagents/files.js";
import { executablesIn, projectToolsDir } from "../../tools/dynamic.js";
import type { BrokenHook } from "../contract/definition.js";
import { MetadataCache } from "./metadata-cache.js";
import { findPlugins, type PluginCandidate, pluginDirs } from "./plugins.js";
import { projectPins } from "./scan-pins.js";
import { type ExecutableCandidate, findExecutables } from "./sources/executables.js";
import { realpathOrSelf, ScanReader } from "./sources/files.js";
import { findHookMds, type HookMdCandidate } from "./sources/hook-md.js";
import { hasSettingsHooks, parseSettingsHooks, type SettingsHookFile } from "./sources/settings.js";

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
  /** Plugin files (`~/.acai/plugins/`, `<project>/.acai/plugins/`), user's first; none loaded yet. */
  plugins: PluginCandidate[];
  /** Dynamic tools in `<project>/.acai/tools/`: project code too, trusted with the hooks. */
  projectTools: string[];
  /**
   * Everything the project controls (project/manifest.ts): every file under
   * its `.acai/hooks/`, `.agents/hooks/`, `.acai/tools/` and `.acai/agents/` (through links),
   * its settings files as a whole, interpreters and scripts they name.
   */
  projectManifest: ProjectManifest;
  /** The manifest's hash; null when the project controls nothing acai uses. */
  projectFingerprint: string | null;
}

function hookDirs(options: Pick<ScanOptions, "projectDir" | "acaiHome" | "homeDir">) {
  return {
    projectAcai: path.join(options.projectDir, ".acai", "hooks"),
    projectAgents: path.join(options.projectDir, ".agents", "hooks"),
    userAcai: path.join(options.acaiHome, "hooks"),
    userAgents: path.join(options.homeDir, ".config", "agents", "hooks"),
    projectTools: projectToolsDir(options.projectDir),
    userTools: path.join(options.acaiHome, "tools"),
    projectAgentFiles: projectAgentsDir(options.projectDir),
    userAgentFiles: path.join(options.acaiHome, "agents"),
  };
}

/**
 * Hook folders in configuration order (hooks.md §5), per scope: acai's own
 * folder, then the Agent Hooks one. Within a folder, hooks go by file name.
 */
export function hookFolderOrder(
  options: Pick<ScanOptions, "projectDir" | "acaiHome" | "homeDir">,
): {
  user: string[];
  project: string[];
} {
  const dirs = hookDirs({
    ...options,
    projectDir: path.resolve(options.projectDir),
  });
  return {
    user: [dirs.userAcai, dirs.userAgents],
    project: [dirs.projectAcai, dirs.projectAgents],
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
        dirs.projectAgentFiles,
        dirs.userAgentFiles,
      ].map(realpathOrSelf),
    );
  const projectHookDirs = [
    projectAcaiReal !== userAcaiReal ? dirs.projectAcai : undefined,
    projectAgentsReal !== userAgentsReal ? dirs.projectAgents : undefined,
  ].filter((d): d is string => d !== undefined);
  const projectToolsOwn = toolsReal[0] !== toolsReal[1];
  // Subagent types (subagents/files.ts): their prompts and tool lists steer the agent, trusted with the hooks.
  const projectAgentsOwn = toolsReal[2] !== toolsReal[3];
  const projectAgents = projectAgentsOwn ? agentFilesIn(dirs.projectAgentFiles) : [];

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
  const plugins = await scanPlugins(options, projectDir, broken);
  const settingsFiles = [...options.settingsFiles]
    .filter((file) => hasSettingsHooks(file.hooks))
    .sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "user" ? -1 : 1));

  const pinned = await projectPins({
    projectDir,
    projectSettings: options.settingsFiles.filter((file) => file.scope === "project"),
    agentFiles: projectAgents,
  });
  const projectManifest = manifestOf({
    projectDir,
    pinned,
    trees: [
      ...projectHookDirs,
      ...(projectToolsOwn ? [dirs.projectTools] : []),
      ...(projectAgents.length > 0 ? [dirs.projectAgentFiles] : []),
      // Plugins are code: their whole folder (helpers beside them too) is trusted as one.
      ...(plugins.project ? [plugins.project] : []),
    ],
    settingsFiles: options.settingsFiles,
    hasFiles:
      projectExecutables.length > 0 ||
      hookMds.some((md) => md.scope === "project") ||
      broken.some((b) => b.scope === "project") ||
      projectTools.length > 0 ||
      projectAgents.length > 0 ||
      plugins.found.some((p) => p.scope === "project"),
  });
  return {
    projectDir,
    acaiHome: options.acaiHome,
    homeDir: options.homeDir,
    executables,
    hookMds,
    settingsFiles,
    broken,
    plugins: plugins.found,
    projectTools,
    projectManifest,
    projectFingerprint: projectManifest.fingerprint,
  };
}

/** User and project plugin files; the project's folder (for the manifest) unless it is the user's own. */
async function scanPlugins(
  options: Pick<ScanOptions, "acaiHome">,
  projectDir: string,
  broken: BrokenHook[],
): Promise<{ found: PluginCandidate[]; project?: string }> {
  const dirs = pluginDirs({ projectDir, acaiHome: options.acaiHome });
  const [userReal, projectReal] = await Promise.all([dirs.user, dirs.project].map(realpathOrSelf));
  const user = await findPlugins(dirs.user, "user", broken);
  if (userReal === projectReal) return { found: user };
  const project = await findPlugins(dirs.project, "project", broken);
  return { found: [...user, ...project], ...(project.length > 0 ? { project: dirs.project } : {}) };
}

/** The manifest of what the project controls; empty (no fingerprint) when it controls nothing. */
function manifestOf(args: {
  projectDir: string;
  pinned: PinnedFile[];
  trees: string[];
  settingsFiles: ScanOptions["settingsFiles"];
  /** Project hook files, broken ones or tools were found. */
  hasFiles: boolean;
}): ProjectManifest {
  const { projectDir } = args;
  const projectSettings = args.settingsFiles.filter((file) => file.scope === "project");
  // Files trusted as a whole, like a settings file: `.mcp.json` names commands acai
  // would start; AGENTS.md (or CLAUDE.md) goes into the system prompt.
  const instructions = projectInstructionFile(projectDir);
  const wholeFiles = [
    ...(hasMcpJson(projectDir) ? [mcpJsonPath(projectDir)] : []),
    ...(instructions === undefined ? [] : [instructions]),
  ].map((file) => ({ path: file }));
  if (!args.hasFiles && wholeFiles.length === 0 && !projectSettings.some(setsSomething)) {
    return { entries: [], fingerprint: null };
  }
  return buildProjectManifest({
    projectDir,
    trees: args.trees,
    settingsFiles: [
      ...projectSettings.map((file) => ({
        path: path.resolve(projectDir, file.path),
        ...(file.digest !== undefined ? { digest: file.digest } : {}),
      })),
      ...wholeFiles,
    ],
    commandPaths: projectSettings.flatMap((file) =>
      parseSettingsHooks(file).items.flatMap((item) =>
        commandPaths(item.entry.command, projectDir),
      ),
    ),
    pinned: args.pinned,
  });
}

/** A project settings file that sets nothing (`{}`) asks for no trust; one that sets anything does. */
function setsSomething(file: { hooks: unknown; values?: object }): boolean {
  return (
    file.hooks !== undefined || file.values === undefined || Object.keys(file.values).length > 0
  );
}
