/**
 * Every hook acai can see for a project, for the toolkit commands (list, test,
 * replay): user hooks and trusted project hooks as the session would load
 * them; untrusted project hooks from what can be known WITHOUT running them
 * (HOOK.md frontmatter, settings entries, describe metadata cached for the
 * exact current content of an executable). Plugins are loaded as a session
 * loads them (user plugins always, project plugins once trusted), each in its
 * worker: the inventory holds their host, and `withInventory` stops it.
 */
import type { AcaiPaths } from "../../config/paths.js";
import { SettingsError } from "../../config/settings.js";
import type { BrokenHook, HookDefinition, HookScope } from "../../hooks/contract/definition.js";
import { compareHooks } from "../../hooks/contract/hook-order.js";
import type { LateHooks } from "../../hooks/contract/late-hooks.js";
import { MetadataCache } from "../../hooks/discover/metadata-cache.js";
import type { PluginCandidate } from "../../hooks/discover/plugins.js";
import { type HookScan, loadHookRegistry } from "../../hooks/discover/registry.js";
import {
  type ExecutableCandidate,
  executableDefinition,
  loadExecutables,
} from "../../hooks/discover/sources/executables.js";
import { hookMdDefinition } from "../../hooks/discover/sources/hook-md.js";
import { loadSettingsHooks } from "../../hooks/discover/sources/settings.js";
import type { PluginHost } from "../../hooks/run/plugins/host.js";
import { createSessionPlugins } from "../../hooks/run/plugins/session.js";
import type { ProcessRunner } from "../../process/types.js";
import { assessProject } from "../../session/assessment.js";
import { hookRegistrySettings } from "../../session/hook-registry-settings.js";
import { UsageError } from "../errors.js";

type ProjectTrust = "no-project-hooks" | "trusted" | "untrusted";
/** `user` hooks are always trusted; project hooks follow the project's trust record. */
type EntryTrust = "user" | "trusted" | "untrusted";

export type HookEntry =
  | { status: "ok"; hook: HookDefinition; trust: EntryTrust; fromCache?: boolean }
  | { status: "broken"; broken: BrokenHook; trust: EntryTrust }
  /** An untrusted project executable never described: nothing is known without running it. */
  | { status: "unknown"; candidate: ExecutableCandidate; trust: EntryTrust }
  /** An untrusted project plugin: never imported before trust, so none of its hooks is known. */
  | { status: "unloaded"; plugin: PluginCandidate; trust: EntryTrust };

export interface Inventory {
  paths: AcaiPaths;
  projectDir: string;
  scan: HookScan;
  projectTrust: ProjectTrust;
  /** True when project hooks were loaded as a session would (trusted, or the caller asked). */
  projectLoaded: boolean;
  entries: HookEntry[];
  settingsWarnings: string[];
  /** The loaded plugins' workers (none when there is no plugin to load): they run plugin hooks. */
  plugins?: PluginHost;
  /** What plugins registered after their register() returned, so far (read when printing). */
  late: LateHooks;
  /** Stops the plugins' workers. */
  close(): Promise<void>;
}

export interface InventoryOptions {
  cwd: string;
  env: Readonly<Record<string, string>>;
  homeDir: string;
  runner: ProcessRunner;
  /** Load (and describe) project hooks even if untrusted: only on the user's explicit request. */
  loadUntrustedProject?: boolean;
  /** Leave project hooks out entirely (`--no-project`). */
  skipProject?: boolean;
}

function entryFile(entry: HookEntry): string {
  switch (entry.status) {
    case "ok":
      return entry.hook.file;
    case "broken":
      return entry.broken.file;
    case "unknown":
      return entry.candidate.path;
    case "unloaded":
      return entry.plugin.file;
    default:
      return entry satisfies never;
  }
}

/** The inventory for the length of `body`; the plugins' workers are stopped after it, whatever happens. */
export async function withInventory<T>(
  options: InventoryOptions,
  body: (inventory: Inventory) => Promise<T>,
): Promise<T> {
  const inventory = await loadInventory(options);
  try {
    return await body(inventory);
  } finally {
    await inventory.close();
  }
}

/** Root, settings, scan and trust as a session sees them; a bad settings file is a usage error. */
async function assessOrExplain(options: InventoryOptions) {
  try {
    return await assessProject({
      cwd: options.cwd,
      env: options.env,
      homeDir: options.homeDir,
      includeProject: options.skipProject !== true,
    });
  } catch (error) {
    if (error instanceof SettingsError) throw new UsageError(error.message);
    throw error;
  }
}

async function loadInventory(options: InventoryOptions): Promise<Inventory> {
  const project = await assessOrExplain(options);
  const { paths, scan, loaded: settings } = project;
  const projectDir = project.root.dir;
  const projectTrust: ProjectTrust =
    project.status === "nothing" ? "no-project-hooks" : project.status;
  const projectLoaded =
    !options.skipProject &&
    projectTrust !== "no-project-hooks" &&
    (projectTrust === "trusted" || options.loadUntrustedProject === true);
  const trustOf = (scope: HookScope): EntryTrust =>
    scope === "user" ? "user" : projectTrust === "trusted" ? "trusted" : "untrusted";

  // Plugins as a session loads them: the project's only when its hooks are loaded.
  const plugins = createSessionPlugins({
    plugins: scan.plugins,
    included: (scope) => scope === "user" || projectLoaded,
    env: options.env,
    projectDir,
    ...(settings.user.plugins === undefined ? {} : { userPluginSettings: settings.user.plugins }),
  });
  const close = async (): Promise<void> => {
    await plugins?.close();
  };
  const registry = await loadHookRegistry(scan, {
    includeProject: projectLoaded,
    runner: options.runner,
    env: options.env,
    acaiHome: paths.home,
    projectDir,
    ...hookRegistrySettings(settings, projectLoaded),
    ...(plugins === undefined ? {} : { plugins }),
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  const ok: HookEntry[] = registry.hooks.map((hook) => ({
    status: "ok",
    hook,
    trust: trustOf(hook.scope),
  }));
  const broken: HookEntry[] = registry.broken.map((b) => ({
    status: "broken",
    broken: b,
    trust: trustOf(b.scope),
  }));
  const unknown: HookEntry[] = [];
  if (!projectLoaded && !options.skipProject) {
    const known = knownWithoutRunning(scan, projectDir);
    for (const item of known.hooks)
      ok.push({
        status: "ok",
        hook: item.hook,
        trust: trustOf("project"),
        ...(item.fromCache ? { fromCache: true } : {}),
      });
    for (const b of known.broken)
      broken.push({ status: "broken", broken: b, trust: trustOf("project") });
    for (const candidate of known.unknown)
      unknown.push({ status: "unknown", candidate, trust: trustOf("project") });
    for (const plugin of scan.plugins.filter((p) => p.scope === "project"))
      unknown.push({ status: "unloaded", plugin, trust: trustOf("project") });
  }
  ok.sort((a, b) => (a.status === "ok" && b.status === "ok" ? compareHooks(a.hook, b.hook) : 0));
  broken.sort((a, b) => entryFile(a).localeCompare(entryFile(b)));
  unknown.sort((a, b) => entryFile(a).localeCompare(entryFile(b)));
  return {
    paths,
    projectDir,
    scan,
    projectTrust,
    projectLoaded,
    entries: [...ok, ...unknown, ...broken],
    settingsWarnings: [...settings.warnings, ...registry.warnings],
    ...(plugins === undefined ? {} : { plugins }),
    late: registry.late,
    close,
  };
}

/** Project hooks as far as they can be known without executing any project file. */
function knownWithoutRunning(
  scan: HookScan,
  projectDir: string,
): {
  hooks: { hook: HookDefinition; fromCache: boolean }[];
  broken: BrokenHook[];
  unknown: ExecutableCandidate[];
} {
  const hooks: { hook: HookDefinition; fromCache: boolean }[] = [];
  const broken: BrokenHook[] = scan.broken.filter((b) => b.scope === "project");
  const unknown: ExecutableCandidate[] = [];
  for (const candidate of scan.executables) {
    if (candidate.scope !== "project") continue;
    if (candidate.cachedMetadata === undefined) {
      unknown.push(candidate);
      continue;
    }
    const def = executableDefinition(candidate, candidate.cachedMetadata.metadata, projectDir);
    if ("launch" in def) hooks.push({ hook: def, fromCache: true });
    else broken.push(def);
  }
  for (const md of scan.hookMds) {
    if (md.scope !== "project") continue;
    const def = hookMdDefinition(md, projectDir);
    if ("launch" in def) hooks.push({ hook: def, fromCache: false });
    else broken.push(def);
  }
  const settings = loadSettingsHooks(
    scan.settingsFiles.filter((file) => file.scope === "project"),
    projectDir,
  );
  for (const hook of settings.hooks) hooks.push({ hook, fromCache: false });
  broken.push(...settings.broken);
  return { hooks, broken, unknown };
}

/** Runs describe for one executable (cache first): `acai hooks test` on a file the user named. */
export async function describeOne(
  candidate: ExecutableCandidate,
  options: {
    runner: ProcessRunner;
    env: Readonly<Record<string, string>>;
    projectDir: string;
    acaiHome: string;
  },
): Promise<HookDefinition | BrokenHook> {
  const cache = await MetadataCache.load(options.acaiHome);
  const result = await loadExecutables([candidate], {
    runner: options.runner,
    env: options.env,
    projectDir: options.projectDir,
    cache,
    now: Date.now,
  });
  return result.hooks[0] ?? (result.broken[0] as BrokenHook);
}
