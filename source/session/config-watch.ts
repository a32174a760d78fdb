/**
 * config_change (Claude Code's ConfigChange) for one run of a session: the
 * settings files the session reads (the user's `<ACAI_HOME>/settings.json`
 * and `~/.claude/settings.json`; the project's `.acai/` and `.claude/`
 * `settings.json` and `settings.local.json` when the project is taken) are
 * watched; a file whose text is no longer what the session last saw raises
 * the `config_change` gate (source, file_path). Then (docs/hooks.md "When
 * settings change"):
 * - blocked (or the gate fails closed): this session keeps its settings;
 * - a user file: its permission rules (allow, ask, deny) apply from now on
 *   (`reapplyUser`); everything else in it applies from the next session;
 * - a project file: nothing of it applies — it is part of the trusted set
 *   (hooks.md §7), so the change is untrusted until the user trusts the
 *   project again; the hooks it defines stop running (their fingerprint,
 *   hooks/discover/hook-files.ts) and the next session asks for trust.
 * Each outcome is said as a warning. Changes are handled one at a time.
 */
import { createHash } from "node:crypto";
import path from "node:path";
import type { ConfigChange } from "../agent/event-data.js";
import type { SettingsLocation } from "../config/load-settings.js";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "../config/read-regular-file.js";
import type { SettingsFile } from "../config/settings.js";
import type { ConfigGateEvent, ConfigVerdict } from "../hooks/run/config-gate.js";
import { createPathWatcher, type WatchFolder } from "./path-watcher.js";

export interface ConfigWatchOptions {
  /** The settings files to watch (existing or not). */
  locations: readonly SettingsLocation[];
  /** The files as the session loaded them (their digests are the starting point). */
  loaded: readonly Pick<SettingsFile, "path" | "digest">[];
  gate(event: ConfigGateEvent): Promise<ConfigVerdict>;
  /** Re-applies what a user file can change mid-session (its permission rules); throws when it cannot be read. */
  reapplyUser(): Promise<void>;
  /** Whether the user's trust covers the project as it is now (the REPL's "don't ask again in this project" re-trusts it). */
  projectTrusted(): Promise<boolean>;
  warn(message: string): void;
  watch?: WatchFolder;
}

export interface ConfigWatch {
  close(): void;
  /** Settles once the changes seen so far are handled (tests). */
  settled(): Promise<void>;
}

/** The text's sha256 as loadSettings computes it; "absent" when there is no file. */
function digestOf(file: string): string {
  const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
  if (!read.ok) return read.problem === "missing" ? "absent" : `unreadable:${read.problem}`;
  return createHash("sha256").update(read.data.toString("utf8")).digest("hex");
}

/** Claude Code's ConfigChange `source` of a settings file. */
export function configSource(location: SettingsLocation): ConfigChange["source"] {
  if (location.scope === "user") return "user_settings";
  return path.basename(location.path).endsWith(".local.json")
    ? "local_settings"
    : "project_settings";
}

export function watchSettingsFiles(options: ConfigWatchOptions): ConfigWatch {
  const seen = new Map<string, string>();
  for (const location of options.locations) {
    const loaded = options.loaded.find((file) => file.path === location.path);
    seen.set(location.path, loaded?.digest ?? "absent");
  }
  let queue: Promise<void> = Promise.resolve();
  let closed = false;
  const onChange = (file: string): void => {
    const location = options.locations.find((l) => l.path === file);
    if (location === undefined || closed) return;
    queue = queue.then(() => (closed ? undefined : handle(options, seen, location)));
  };
  const watcher = createPathWatcher({
    onChange,
    ...(options.watch === undefined ? {} : { watch: options.watch }),
  });
  watcher.set(options.locations.map((location) => location.path));
  return {
    close() {
      closed = true;
      watcher.close();
    },
    settled: () => queue,
  };
}

async function handle(
  options: ConfigWatchOptions,
  seen: Map<string, string>,
  location: SettingsLocation,
): Promise<void> {
  const file = location.path;
  const now = digestOf(file);
  if (seen.get(file) === now) return;
  seen.set(file, now);
  const source = configSource(location);
  const verdict = await options
    .gate({ type: "config_change", change: { source, filePath: file } })
    .catch((error: unknown): ConfigVerdict => ({ apply: false, reason: String(error) }));
  if (!verdict.apply) {
    options.warn(
      `Settings file ${file} changed; a config_change hook kept this session's settings (${verdict.reason}). The change applies from the next session.`,
    );
    return;
  }
  if (location.scope === "project") {
    if (await options.projectTrusted().catch(() => false)) {
      options.warn(
        `Settings file ${file} changed; your trust covers the project as it is now. This session keeps the settings and hooks it started with (a rule you allowed from a prompt applies already); the change applies from the next session.`,
      );
      return;
    }
    options.warn(
      `Settings file ${file} changed during the session. It is part of the project's trusted set, so nothing of the change applies to this session: its hooks and settings stay as the session loaded and trusted them, and the next session asks you to trust the project again (acai hooks trust).`,
    );
    return;
  }
  try {
    await options.reapplyUser();
    options.warn(
      `Settings file ${file} changed: its permission rules (allow, ask, deny) apply to this session from now on; its other settings apply from the next session.`,
    );
  } catch (error) {
    options.warn(
      `Settings file ${file} changed but cannot be used (${(error as Error).message}); this session keeps its settings. Fix the file: the next session will not start with it as it is.`,
    );
  }
}
