/**
 * The watchers of one run of a session: its settings files (config_change,
 * config-watch.ts) and the paths file_changed hooks asked for (file-watch.ts).
 * Started before the agent runs, closed when the run ends (session/run.ts).
 * What they raise goes through the run's interceptor, given late (`bind`):
 * the interceptor's options need `onWatchPaths` before it exists.
 */
import { loadSettings, settingsLocations } from "../config/load-settings.js";
import type { HookDefinition } from "../hooks/contract/definition.js";
import type { HookInterceptor } from "../hooks/run/interceptor.js";
import type { PermissionPolicy } from "../permissions/decide.js";
import { sessionPermissions } from "../permissions/sources.js";
import { assessProject } from "./assessment.js";
import { type ConfigWatch, watchSettingsFiles } from "./config-watch.js";
import { type FileWatch, watchFiles } from "./file-watch.js";
import type { SessionGround } from "./ground.js";
import type { WatchFolder } from "./path-watcher.js";
import type { PrepareSessionOptions } from "./types.js";

export interface RunWatchesInput {
  ground: SessionGround;
  options: PrepareSessionOptions;
  hooks: readonly HookDefinition[];
  /** The session's one permission policy: a user file's rules are re-applied to it. */
  policy: PermissionPolicy;
  watch?: WatchFolder;
}

export interface RunWatches {
  /** The interceptor's `onWatchPaths`. */
  onWatchPaths(paths: readonly string[], hook: HookDefinition): void;
  /** Starts watching, raising through `intercept`. */
  start(intercept: Pick<HookInterceptor, "raise" | "gateConfig">): void;
  /** The paths watched for file_changed hooks now (none when no hook listens). */
  watchedFiles(): string[];
  close(): void;
}

export function runWatches(input: RunWatchesInput): RunWatches {
  let files: FileWatch | undefined;
  let config: ConfigWatch | undefined;
  let closed = false;
  return {
    onWatchPaths: (paths, hook) => files?.setWatchPaths(paths, hook),
    start(intercept) {
      if (closed) return;
      const warn = (message: string): void =>
        void intercept.raise({ type: "warning", source: "settings", message });
      files = watchFiles({
        projectDir: input.ground.projectDir,
        hooks: input.hooks,
        raise: (event) => void intercept.raise(event),
        warn,
        ...(input.watch === undefined ? {} : { watch: input.watch }),
      });
      config = watchSettingsFiles({
        locations: watchedSettings(input),
        loaded: input.ground.project.loaded.settingsFiles,
        gate: (event) => intercept.gateConfig(event),
        reapplyUser: () => reapplyUserRules(input),
        projectTrusted: async () =>
          (await assessProject({ ...assessOptions(input), includeProject: true })).status ===
          "trusted",
        warn,
        ...(input.watch === undefined ? {} : { watch: input.watch }),
      });
    },
    watchedFiles: () => files?.watched() ?? [],
    close() {
      closed = true;
      files?.close();
      config?.close();
    },
  };
}

function assessOptions({ options }: RunWatchesInput) {
  return { cwd: options.cwd, env: options.env, homeDir: options.homeDir };
}

/** The files the session reads: the user's always, the project's when it is taken. */
function watchedSettings({ ground, options }: RunWatchesInput) {
  return settingsLocations({
    acaiHome: ground.project.paths.home,
    projectDir: ground.projectDir,
    homeDir: options.homeDir,
  }).filter((location) => location.scope === "user" || ground.includeProject);
}

/**
 * A user file changed: the permission rules are built again from the user's
 * files as they are now and the project's as the session loaded them (with
 * the same flags); rules the REPL added for this session are kept. The mode
 * is not changed.
 */
async function reapplyUserRules(input: RunWatchesInput): Promise<void> {
  const { ground, options, policy } = input;
  const fresh = await loadSettings({
    acaiHome: ground.project.paths.home,
    projectDir: ground.projectDir,
    homeDir: options.homeDir,
    includeProject: false,
  });
  const project = ground.project.loaded.settingsFiles.filter((file) => file.scope === "project");
  const files = [...fresh.settingsFiles, ...project].map((file) => ({
    path: file.path,
    scope: file.scope,
    ...(file.values.permissions === undefined ? {} : { permissions: file.values.permissions }),
  }));
  const next = sessionPermissions(files, ground.includeProject, options.flags.permissions).rules;
  const session = <L extends keyof typeof policy.rules>(list: L) =>
    policy.rules[list].filter((rule) => rule.source.scope === "session");
  policy.rules = {
    allow: [...next.allow, ...session("allow")],
    ask: [...next.ask, ...session("ask")],
    deny: [...next.deny, ...session("deny")],
  };
}
