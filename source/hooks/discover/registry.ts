/**
 * The hook registry: what the scan found (scan.ts), described (cache first)
 * and validated, in the scopes trust includes.
 */

import path from "node:path";
import {
  applyEnvConfirmations,
  type ConfirmedEnv,
  type EnvRequester,
} from "../../config/env-confirmation.js";
import type { ProcessRunner } from "../../process/types.js";
import type { BrokenHook, HookDefinition, HookScope } from "../contract/definition.js";
import { askAheadIgnoredWarning } from "../contract/definition.js";
import { compareHooks } from "../contract/hook-order.js";
import { LateHooks } from "../contract/late-hooks.js";
import type { PluginLoader } from "../contract/plugin-registration.js";
import { type DisableSettings, markDisabled } from "./disabled.js";
import { HookFingerprints, manifestHashes } from "./fingerprint.js";
import { boundHooksPerEvent, DEFAULT_MAX_HOOKS } from "./max-hooks.js";
import { MetadataCache } from "./metadata-cache.js";
import { loadPlugins } from "./plugins.js";
import type { RelayConfigEffect } from "./relay-config.js";
import { type HookScan, hookFolderOrder } from "./scan.js";
import { loadExecutables } from "./sources/executables.js";
import { hookMdDefinition } from "./sources/hook-md.js";
import { loadSettingsHooks } from "./sources/settings.js";
import type { HttpHookPolicy } from "./sources/settings-launch.js";

export { type HookScan, scanHookSources } from "./scan.js";
export type { SettingsHookFile } from "./sources/settings.js";
export { describeUntrusted } from "./untrusted.js";

export interface HookRegistry {
  hooks: HookDefinition[];
  broken: BrokenHook[];
  /**
   * Hooks that load, but not quite as written (a settings timeout clamped to
   * acai's limits, `ask_ahead` on a spawned hook, a secret request not confirmed).
   */
  warnings: string[];
  /** The loaded hooks' files as they are now (or as trust saw them): checked before each run. */
  fingerprints: HookFingerprints;
  /** What the project's executables asked for in describe (before confirmation), for `acai hooks trust`. */
  projectEnvRequests: EnvRequester[];
  /** What the relay.configs loaded change: idle time, pattern limits, unlimited injection (relay-config.ts). */
  relay: RelayConfigEffect;
  /** Hooks plugins register after their `register(api)` returned (OpenClaw's dynamic addition). */
  late: LateHooks;
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
  /** `disableAllHooks` and `disabledHooks` of the settings (disabled.ts). */
  disable?: DisableSettings;
  /** Runs the plugins' `register(api)`; without it plugins are not loaded. */
  plugins?: PluginLoader;
  /** Hooks per event (user settings `hookDefaults.maxHooks`, default 100); past it a warning names the rest. */
  maxHooks?: number;
  /**
   * The describe `env` requests of project executables the user confirmed
   * (the trust record's, project/env-confirmation.ts); absent: none. A request
   * not confirmed exactly gets no secret and a warning.
   */
  confirmedEnv?: ConfirmedEnv;
  /** Where http hooks may post: the user's `allowedHttpHookUrls` (and the project's, which only narrows). */
  httpHooks?: HttpHookPolicy;
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
  // The scan's, read a moment ago (the cache holds every project's hooks: one read per start).
  const cache =
    scan.metadataCache !== undefined && scan.acaiHome === options.acaiHome
      ? scan.metadataCache
      : await MetadataCache.load(options.acaiHome);
  // A project's hookDefaults reach its own hooks only: the user's guards keep theirs.
  const timeoutFor = (scope: "user" | "project"): number | undefined =>
    scope === "project"
      ? (options.projectDefaultTimeoutMs ?? options.defaultTimeoutMs)
      : options.defaultTimeoutMs;
  const { executables, projectExecutables, projectEnv } = await describeExecutables(scan, {
    ...options,
    projectDir,
    cache,
    included,
    timeoutFor,
  });
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
  const late = new LateHooks();
  const plugins =
    options.plugins === undefined
      ? { hooks: [], broken: [], relay: {} }
      : await loadPlugins(
          scan.plugins.filter((p) => included(p.scope)),
          { host: options.plugins, projectDir, defaultTimeoutFor: timeoutFor, late },
        );
  broken.push(...plugins.broken);
  const settings = loadSettingsHooks(
    scan.settingsFiles.filter((file) => included(file.scope)),
    projectDir,
    timeoutFor,
    options.httpHooks,
  );
  broken.push(...settings.broken);
  // Numbered in place: the matchers prepared at load are cached per definition object.
  const configured = [
    ...inFolderOrder(hooks, hookFolderOrder(scan)),
    ...plugins.hooks,
    ...settings.hooks,
  ];
  configured.forEach((hook, order) => {
    hook.order = order;
  });
  configured.sort(compareHooks);
  if (options.disable !== undefined) markDisabled(configured, options.disable);
  broken.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const bounded = boundHooksPerEvent(configured, options.maxHooks ?? DEFAULT_MAX_HOOKS);
  return {
    hooks: bounded.hooks,
    fingerprints: fingerprintsOf(bounded.hooks, scan, options.acaiHome),
    broken,
    projectEnvRequests: projectExecutables.hooks.filter((hook) => hook.env.length > 0),
    relay: plugins.relay,
    late,
    warnings: [
      ...projectEnv.warnings,
      ...settings.warnings,
      ...bounded.warnings,
      ...bounded.hooks.flatMap((hook) => askAheadIgnoredWarning(hook) ?? []),
    ],
  };
}

/**
 * The scan's executables described (through the metadata cache), user and
 * project at once; the project's secret requests count only once the user
 * confirmed them (describe runs only after trust).
 */
async function describeExecutables(
  scan: HookScan,
  options: LoadOptions & {
    cache: MetadataCache;
    included: (scope: HookScope) => boolean;
    timeoutFor: (scope: HookScope) => number | undefined;
  },
) {
  const { projectDir, cache, included, timeoutFor } = options;
  const describe = (scope: HookScope) => {
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
  const projectEnv = applyEnvConfirmations(projectExecutables.hooks, {
    confirmed: options.confirmedEnv ?? {},
    projectDir,
    what: "hook",
  });
  return {
    executables: {
      hooks: [...userExecutables.hooks, ...projectEnv.items],
      broken: [...userExecutables.broken, ...projectExecutables.broken],
    },
    projectExecutables,
    projectEnv,
  };
}

/** The loaded hooks' files, a project file's as trust recorded it (fingerprint.ts). */
function fingerprintsOf(
  hooks: readonly HookDefinition[],
  scan: HookScan,
  acaiHome: string,
): HookFingerprints {
  const projectDir = path.resolve(scan.projectDir);
  return HookFingerprints.record(hooks, {
    projectDir,
    acaiHome,
    homeDir: scan.homeDir,
    known: manifestHashes(projectDir, scan.projectManifest.entries),
  });
}

/**
 * Folder hooks (executables, HOOK.md folders) in configuration order: by
 * folder (`folders`, per scope), then by the name of their file or folder
 * (code points, so the order is the same on every machine).
 */
function inFolderOrder(
  hooks: readonly HookDefinition[],
  folders: { user: readonly string[]; project: readonly string[] },
): HookDefinition[] {
  const keyOf = (hook: HookDefinition): { folder: number; entry: string } => {
    const entryPath = hook.sourceKind === "hook_md" ? path.dirname(hook.file) : hook.file;
    const rank = folders[hook.scope].indexOf(path.dirname(entryPath));
    return {
      folder: rank === -1 ? folders[hook.scope].length : rank,
      entry: path.basename(entryPath),
    };
  };
  const keyed = hooks.map((hook) => ({ hook, key: keyOf(hook) }));
  keyed.sort((a, b) => {
    if (a.key.folder !== b.key.folder) return a.key.folder - b.key.folder;
    if (a.key.entry !== b.key.entry) return a.key.entry < b.key.entry ? -1 : 1;
    return a.hook.id < b.hook.id ? -1 : a.hook.id > b.hook.id ? 1 : 0;
  });
  return keyed.map(({ hook }) => hook);
}
