/**
 * What the trust prompt shows about project hooks and dynamic tools, found
 * without running any of them (cached describe metadata where it is current).
 */
import path from "node:path";
import type {
  BrokenHook,
  HookDefinition,
  HookEventName,
  HookMatcher,
  HookSourceKind,
} from "../contract/definition.js";
import type { HookScan } from "./scan.js";
import { CACHED_FAILURE_NOTE, executableDefinition } from "./sources/executables.js";
import { hookMdDefinition } from "./sources/hook-md.js";
import { parseSettingsHooks } from "./sources/settings.js";
import { entryText } from "./sources/settings-launch.js";
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
  /** What it asks of the OS sandbox (hosts, paths it writes), when known without running it. */
  sandbox?: string;
}

function needsText(needs: { network?: unknown; write?: unknown } | undefined): string | undefined {
  if (needs === undefined || needs === null || typeof needs !== "object") return undefined;
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  const parts = [
    list(needs.network).length ? `network ${list(needs.network).join(", ")}` : "",
    list(needs.write).length ? `writes ${list(needs.write).join(", ")}` : "",
  ].filter(Boolean);
  return parts.length ? parts.join("; ") : undefined;
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
  const needs = needsText(def.sandbox);
  if (needs !== undefined) hook.sandbox = needs;
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
        command: entryText(item.entry),
      };
      const env = [
        ...item.entry.env,
        ...(item.entry.type === "http" ? item.entry.allowedEnvVars : []),
      ];
      if (env.length > 0) hook.env = env;
      const needs = needsText((item.entry as { sandbox?: { network?: unknown } }).sandbox);
      if (needs !== undefined) hook.sandbox = needs;
      if (item.matcher !== undefined && item.matcher.trim() !== "") hook.matcher = item.matcher;
      result.push(hook);
    }
    for (const bad of parsed.broken) result.push(fromDefinition(bad, ""));
  }
  for (const bad of scan.broken) {
    if (bad.scope === "project") result.push(fromDefinition(bad, bad.file));
  }
  for (const plugin of scan.plugins) {
    if (plugin.scope !== "project") continue;
    result.push({
      sourceKind: "plugin",
      file: plugin.file,
      name: path.basename(plugin.file),
      events: [],
      command: plugin.file,
      note:
        plugin.kind === "relay-config"
          ? "agent-relay's relay.config: code acai imports and runs in a worker thread (its patterns and hooks)"
          : "a plugin: code acai imports and runs in a worker thread (its register(api) at start)",
    });
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
