/**
 * Finding hooks without running any (hooks.md §2): executables, HOOK.md
 * folders, settings hooks and plugin files in the user's and the project's
 * folders; with what else the project controls (project/content.ts), the
 * manifest of everything trust covers (project/trusted-set.ts).
 */
import path from "node:path";
import { projectPins } from "../../project/config-pins.js";
import { findProjectContent } from "../../project/content.js";
import type { ProjectManifest } from "../../project/manifest.js";
import { trustedSetManifest } from "../../project/trusted-set.js";
import type { BrokenHook } from "../contract/definition.js";
import { MetadataCache } from "./metadata-cache.js";
import { findPlugins, type PluginCandidate, pluginDirs } from "./plugins.js";
import { findRelayConfig } from "./relay-config.js";
import { type ExecutableCandidate, findExecutables } from "./sources/executables.js";
import { realpathOrSelf, ScanReader } from "./sources/files.js";
import { findHookMds, type HookMdCandidate } from "./sources/hook-md.js";
import { parseSettingsHooks, type SettingsHookFile } from "./sources/settings.js";
import { hasSettingsHooks } from "./sources/settings-section.js";

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
  /** The describe cache as the scan read it: the registry describes through the same one. */
  metadataCache?: MetadataCache;
}

function hookDirs(options: Pick<ScanOptions, "projectDir" | "acaiHome" | "homeDir">) {
  return {
    projectAcai: path.join(options.projectDir, ".acai", "hooks"),
    projectAgents: path.join(options.projectDir, ".agents", "hooks"),
    userAcai: path.join(options.acaiHome, "hooks"),
    userAgents: path.join(options.homeDir, ".config", "agents", "hooks"),
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
  const contentFound = findProjectContent({ projectDir, acaiHome: options.acaiHome });
  const projectHookDirs = await projectsOwn(dirs);
  const broken: BrokenHook[] = [];
  const reader = new ScanReader();
  // Read (never written) here so describeUntrusted can show known metadata without running anything.
  const cacheLoad = MetadataCache.load(options.acaiHome);
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
  const content = await contentFound;
  const cache = await cacheLoad;
  for (const candidate of projectExecutables) {
    const cached = cache.lookup(candidate);
    if (cached?.ok) candidate.cachedMetadata = { metadata: cached.metadata };
    else if (cached !== undefined) candidate.cachedFailure = cached.reason;
  }
  const plugins = await scanPlugins(options, projectDir, broken);
  const projectSettings = options.settingsFiles.filter((file) => file.scope === "project");
  const projectManifest = trustedSetManifest({
    projectDir,
    pinned: await projectPins({ projectDir, projectSettings, agentFiles: content.agentFiles }),
    // Plugins are code: their whole folder (helpers beside them too) is trusted as one.
    trees: [...projectHookDirs, ...content.trees, ...(plugins.project ? [plugins.project] : [])],
    // A relay.config.ts is code: trusted as a whole file (what it imports is not covered, as for plugins).
    wholeFiles: [...content.wholeFiles, ...(plugins.relayConfig ? [plugins.relayConfig] : [])],
    settingsFiles: projectSettings,
    commands: () =>
      projectSettings.flatMap((file) =>
        parseSettingsHooks(file).items.flatMap((item) =>
          item.entry.type === "command" ? [item.entry.command] : [],
        ),
      ),
    hasFiles:
      projectExecutables.length > 0 ||
      hookMds.some((md) => md.scope === "project") ||
      broken.some((b) => b.scope === "project") ||
      content.tools.length > 0 ||
      content.agentFiles.length > 0 ||
      plugins.found.some((p) => p.scope === "project"),
  });
  return {
    projectDir,
    acaiHome: options.acaiHome,
    homeDir: options.homeDir,
    executables: [...userExecutables, ...projectExecutables],
    hookMds,
    settingsFiles: [...options.settingsFiles]
      .filter((file) => hasSettingsHooks(file.hooks))
      .sort((a, b) => (a.scope === b.scope ? 0 : a.scope === "user" ? -1 : 1)),
    broken,
    plugins: plugins.found,
    projectTools: content.tools,
    projectManifest,
    projectFingerprint: projectManifest.fingerprint,
    metadataCache: cache,
  };
}

/** The project's hook folders that are not the user's own: run from the home folder, the project's .acai/hooks is the user's, user scope. */
async function projectsOwn(dirs: ReturnType<typeof hookDirs>): Promise<string[]> {
  const [projectAcai, userAcai, projectAgents, userAgents] = await Promise.all(
    [dirs.projectAcai, dirs.userAcai, dirs.projectAgents, dirs.userAgents].map(realpathOrSelf),
  );
  return [
    projectAcai !== userAcai ? dirs.projectAcai : undefined,
    projectAgents !== userAgents ? dirs.projectAgents : undefined,
  ].filter((d): d is string => d !== undefined);
}

/**
 * User and project plugin files, each scope's relay.config after its plugins;
 * the project's plugin folder and relay.config (for the manifest) unless they are the user's own.
 */
async function scanPlugins(
  options: Pick<ScanOptions, "acaiHome">,
  projectDir: string,
  broken: BrokenHook[],
): Promise<{ found: PluginCandidate[]; project?: string; relayConfig?: string }> {
  const dirs = pluginDirs({ projectDir, acaiHome: options.acaiHome });
  const [userReal, projectReal, homeReal, rootReal] = await Promise.all(
    [dirs.user, dirs.project, options.acaiHome, projectDir].map(realpathOrSelf),
  );
  const user = [
    ...(await findPlugins(dirs.user, "user", broken)),
    ...(await relayConfigCandidate(options.acaiHome, "user", broken)),
  ];
  const projectPlugins =
    userReal === projectReal ? [] : await findPlugins(dirs.project, "project", broken);
  const projectRelay =
    homeReal === rootReal ? [] : await relayConfigCandidate(projectDir, "project", broken);
  return {
    found: [...user, ...projectPlugins, ...projectRelay],
    ...(projectPlugins.length > 0 ? { project: dirs.project } : {}),
    ...(projectRelay[0] ? { relayConfig: projectRelay[0].file } : {}),
  };
}

async function relayConfigCandidate(
  dir: string,
  scope: "user" | "project",
  broken: BrokenHook[],
): Promise<PluginCandidate[]> {
  const file = await findRelayConfig(dir, scope, broken);
  return file === undefined ? [] : [{ file, scope, kind: "relay-config" }];
}
