/**
 * Plugins: finding them (no code runs: names and stats only) and loading
 * them (their `register(api)` runs in a worker, host.ts) into hook
 * definitions. `<project>/.acai/plugins/` is project code, loaded only once
 * the project is trusted (its whole folder is in the trust manifest, scan.ts);
 * `~/.acai/plugins/` is the user's.
 */
import path from "node:path";
import type { BrokenHook, HookDefinition, HookScope } from "../contract/definition.js";
import type { LateHooks } from "../contract/late-hooks.js";
import type { PluginKind, PluginLoader } from "../contract/plugin-registration.js";
import { type LateRegistration, registrationHook } from "../contract/plugin-registration.js";
import { mergeRelayEffects, type RelayConfigEffect, relayConfigVerdict } from "./relay-config.js";
import { listDir, statOrUndefined } from "./sources/files.js";

const PLUGIN_EXTENSIONS = [".js", ".mjs", ".ts"] as const;
/** Plugin files read per folder; the rest are reported, not loaded. */
const MAX_PLUGIN_FILES = 100;
/** Registrations kept per plugin. */
const MAX_REGISTRATIONS = 200;

export interface PluginCandidate {
  file: string;
  scope: HookScope;
  /** Default `plugin`; `relay-config`: agent-relay's relay.config.ts (relay-config.ts). */
  kind?: PluginKind;
}

export function pluginDirs(where: { projectDir: string; acaiHome: string }): {
  user: string;
  project: string;
} {
  return {
    user: path.join(where.acaiHome, "plugins"),
    project: path.join(path.resolve(where.projectDir), ".acai", "plugins"),
  };
}

/** The plugin files of one folder, by name: regular files (through links) with a plugin extension. */
export async function findPlugins(
  dir: string,
  scope: HookScope,
  broken: BrokenHook[],
): Promise<PluginCandidate[]> {
  const found: PluginCandidate[] = [];
  for (const entry of await listDir(dir)) {
    const file = path.join(dir, entry.name);
    if (!(PLUGIN_EXTENSIONS as readonly string[]).includes(path.extname(entry.name))) continue;
    if (entry.name.endsWith(".d.ts")) continue;
    const stats = await statOrUndefined(file);
    if (stats === undefined || !stats.isFile()) continue;
    if (found.length >= MAX_PLUGIN_FILES) {
      broken.push({
        file,
        scope,
        sourceKind: "plugin",
        reason: `more than ${MAX_PLUGIN_FILES} plugins in ${dir}; this one is not loaded`,
      });
      continue;
    }
    found.push({ file, scope });
  }
  return found;
}

export interface LoadPluginsOptions {
  host: PluginLoader;
  projectDir: string;
  defaultTimeoutFor: (scope: HookScope) => number | undefined;
  /** Where registrations made after `register(api)` returned go (late-hooks.ts). */
  late?: LateHooks;
}

export interface LoadedPlugins {
  hooks: HookDefinition[];
  broken: BrokenHook[];
  /** What the relay.configs' `options` and `capabilities` change (relay-config.ts). */
  relay: RelayConfigEffect;
}

/** Runs each plugin's `register(api)` (in its worker) and turns its registrations into hooks. */
export async function loadPlugins(
  candidates: readonly PluginCandidate[],
  options: LoadPluginsOptions,
): Promise<LoadedPlugins> {
  const hooks: HookDefinition[] = [];
  const broken: BrokenHook[] = [];
  const effects: RelayConfigEffect[] = [];
  const loads = await Promise.all(
    candidates.map((c) => options.host.load(c.file, c.kind, lateListener(c, options))),
  );
  candidates.forEach((candidate, i) => {
    let load = loads[i];
    const base = { file: candidate.file, scope: candidate.scope, sourceKind: "plugin" as const };
    if (load?.ok === true && candidate.kind === "relay-config") {
      const verdict = relayConfigVerdict(load.relay, candidate.scope);
      if (verdict.ok) {
        effects.push(verdict.effect);
        load = { ...load, problems: [...load.problems, ...verdict.problems] };
      } else load = { ok: false, reason: `refused: ${verdict.reason}` };
    }
    if (load === undefined || !load.ok) {
      broken.push({ ...base, reason: load?.reason ?? "not loaded" });
      return;
    }
    for (const problem of load.problems) broken.push({ ...base, reason: problem });
    const defaultTimeoutMs = options.defaultTimeoutFor(candidate.scope);
    load.registrations.slice(0, MAX_REGISTRATIONS).forEach((raw, index) => {
      const hook = registrationHook(raw, index, {
        file: candidate.file,
        scope: candidate.scope,
        projectDir: options.projectDir,
        ...(defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs }),
      });
      if (typeof hook === "string") {
        broken.push({
          ...base,
          name: raw.name ?? `${path.basename(candidate.file)}#${index}`,
          reason: hook,
        });
      } else hooks.push(hook);
    });
    if (load.registrations.length > MAX_REGISTRATIONS) {
      broken.push({
        ...base,
        reason: `registered ${load.registrations.length} hooks; only the first ${MAX_REGISTRATIONS} are loaded`,
      });
    }
  });
  return { hooks, broken, relay: mergeRelayEffects(effects) };
}

/**
 * A plugin's registrations after `register(api)` returned, made hooks as the
 * ones before were (same source, same limits) and handed to `options.late`;
 * what cannot be loaded is a warning naming the plugin.
 */
function lateListener(
  candidate: PluginCandidate,
  options: LoadPluginsOptions,
): ((late: LateRegistration) => void) | undefined {
  const late = options.late;
  if (late === undefined) return undefined;
  const base = path.basename(candidate.file);
  const defaultTimeoutMs = options.defaultTimeoutFor(candidate.scope);
  return (registration) => {
    const why = (reason: string) => `plugin ${candidate.file}: ${reason}`;
    if (registration.kind === "problem") {
      late.add({ kind: "broken", message: why(registration.problem) });
      return;
    }
    const { raw, index } = registration;
    if (index >= MAX_REGISTRATIONS) {
      late.add({
        kind: "broken",
        message: why(`registered more than ${MAX_REGISTRATIONS} hooks; #${index} is not loaded`),
      });
      return;
    }
    const hook = registrationHook(raw, index, {
      file: candidate.file,
      scope: candidate.scope,
      projectDir: options.projectDir,
      ...(defaultTimeoutMs === undefined ? {} : { defaultTimeoutMs }),
    });
    late.add(
      typeof hook === "string"
        ? { kind: "broken", message: why(`${raw.name ?? `${base}#${index}`}: ${hook}`) }
        : { kind: "hook", hook },
    );
  };
}
