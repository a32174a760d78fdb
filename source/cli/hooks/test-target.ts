/**
 * Which hook `acai hooks test <hook>` means: a name as `acai hooks list` shows
 * it, or a path (an executable, a HOOK.md folder, its HOOK.md or script, any
 * other executable file, a plugin file). An untrusted executable never
 * described is found by its file name only, and only that one file is
 * described; an untrusted project plugin is never imported, so none of its
 * hooks can be tested before trust.
 */
import type { Stats } from "node:fs";
import { realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { BrokenHook, HookDefinition, HookEventName } from "../../hooks/contract/definition.js";
import { scanFile } from "../../hooks/discover/sources/files.js";
import { meaningfulErrorLine } from "../../process/error-output.js";
import type { ProcessRunner } from "../../process/types.js";
import { inertText } from "../../terminal/inert-text.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { describeOne, type HookEntry, type Inventory } from "./inventory.js";

export interface Target {
  hook: HookDefinition;
  /** Not trusted (or outside every hook folder): the user asked explicitly. */
  untrusted: boolean;
  adHoc: boolean;
}

export type StderrOf = (file: string) => string | undefined;

/** A runner that remembers each run's error output, to quote a failed describe's meaningful line. */
export function recordingRunner(runner: ProcessRunner): {
  runner: ProcessRunner;
  stderrOf: StderrOf;
} {
  const stderrByFile = new Map<string, string>();
  return {
    runner: async (options) => {
      const result = await runner(options);
      for (const part of [options.command, ...(options.args ?? [])]) {
        stderrByFile.set(part, result.stderr);
      }
      return result;
    },
    stderrOf: (file) => stderrByFile.get(file),
  };
}

export interface TargetDeps {
  runner: ProcessRunner;
  env: Readonly<Record<string, string>>;
  cwd: string;
  stderrOf: StderrOf;
}

type OkEntry = Extract<HookEntry, { status: "ok" }>;
type UnknownEntry = Extract<HookEntry, { status: "unknown" }>;
type UnloadedEntry = Extract<HookEntry, { status: "unloaded" }>;

/** One lookup: the inventory searched and how an untrusted executable the user named is described. */
interface Lookup {
  inventory: Inventory;
  stderrOf: StderrOf;
  describeOptions: Parameters<typeof describeOne>[1];
}

export async function findTarget(
  inventory: Inventory,
  target: string,
  event: HookEventName | undefined,
  deps: TargetDeps,
): Promise<Target> {
  const lookup: Lookup = {
    inventory,
    stderrOf: deps.stderrOf,
    describeOptions: {
      runner: deps.runner,
      env: deps.env,
      projectDir: inventory.projectDir,
      acaiHome: inventory.paths.home,
    },
  };
  const asPath = path.resolve(deps.cwd, target);
  const fileStats = await stat(asPath).catch(() => undefined);
  if (fileStats !== undefined) return byPath(lookup, target, asPath, fileStats, event);
  return byName(lookup, target, event) ?? byFileName(lookup, target, event);
}

/** A path: the hook whose file (or HOOK.md folder, or script) it is, else an executable to describe. */
async function byPath(
  lookup: Lookup,
  target: string,
  asPath: string,
  fileStats: Stats,
  event: HookEventName | undefined,
): Promise<Target> {
  const real = await realOrResolved(asPath);
  for (const entry of lookup.inventory.entries) {
    if (!(await filesOf(entry)).includes(real)) continue;
    switch (entry.status) {
      case "ok":
        if (entry.hook.sourceKind === "plugin") return pluginHook(lookup, entry, event);
        return { hook: entry.hook, untrusted: entry.trust === "untrusted", adHoc: false };
      case "broken":
        throw brokenError(entry.broken, lookup.stderrOf);
      case "unknown":
        return { hook: await describe(lookup, entry), untrusted: true, adHoc: false };
      case "unloaded":
        throw unloadedPluginError(entry);
      default:
        return entry satisfies never;
    }
  }
  if (!fileStats.isFile()) {
    throw new UsageError(
      `${target} is not a hook acai knows (run \`acai hooks list\`) nor an executable file.`,
    );
  }
  if ((fileStats.mode & 0o111) === 0) {
    throw new UsageError(`${target} is not executable; run \`chmod +x ${target}\` first.`);
  }
  const scanned = await scanFile(real, fileStats);
  const result = await describeOne({ ...scanned, scope: "project" }, lookup.describeOptions);
  if (!("launch" in result)) throw brokenError(result, lookup.stderrOf);
  return { hook: result, untrusted: true, adHoc: true };
}

/** A name `acai hooks list` shows (`--event` picks among hooks of the same name). */
function byName(
  lookup: Lookup,
  target: string,
  event: HookEventName | undefined,
): Target | undefined {
  const { entries } = lookup.inventory;
  const named = entries.filter((e): e is OkEntry => e.status === "ok" && e.hook.name === target);
  const chosen =
    named.length > 1 && event !== undefined
      ? named.filter((e) => e.hook.events.includes(event))
      : named;
  if (chosen.length > 1) {
    const files = chosen
      .map((e) => `  ${inertText(e.hook.file)} (${inertText(e.hook.events.join(", "))})`)
      .join("\n");
    const settings = chosen.some((e) => e.hook.sourceKind === "settings")
      ? ', or give a settings hook its own "name"'
      : "";
    throw new UsageError(
      `${chosen.length} hooks are named "${inertText(target)}":\n${files}\nName one by its file${event === undefined ? ", pick its event with --event" : ""}${settings}.`,
    );
  }
  const only = chosen[0] ?? named[0];
  if (only) return { hook: only.hook, untrusted: only.trust === "untrusted", adHoc: false };
  const broken = entries.find(
    (e): e is Extract<HookEntry, { status: "broken" }> =>
      e.status === "broken" && e.broken.name === target,
  );
  if (broken) throw brokenError(broken.broken, lookup.stderrOf);
  return undefined;
}

/**
 * An untrusted executable that was never described is found by its file name only, and
 * only that one file is described: describing the others to learn their names would run
 * project code the user did not name.
 */
async function byFileName(
  lookup: Lookup,
  target: string,
  event: HookEventName | undefined,
): Promise<Target> {
  const unknown = lookup.inventory.entries.filter((e): e is UnknownEntry => e.status === "unknown");
  const stem = (file: string) => path.basename(file).replace(/\.[^.]+$/, "");
  const byFile = unknown.filter(
    (e) => path.basename(e.candidate.path) === target || stem(e.candidate.path) === target,
  );
  if (byFile.length > 1) {
    const files = byFile.map((e) => `  ${inertText(e.candidate.path)}`).join("\n");
    throw new UsageError(
      `${byFile.length} hook files are named "${inertText(target)}":\n${files}\nName one by its file instead.`,
    );
  }
  const [entry] = byFile;
  if (entry) return { hook: await describe(lookup, entry), untrusted: true, adHoc: false };
  return byPluginFileName(lookup, target, event);
}

/** A plugin by its file name (`guard.mjs`, `guard`): its hook, or why it has none to run. */
function byPluginFileName(
  lookup: Lookup,
  target: string,
  event: HookEventName | undefined,
): Target {
  const named = (file: string) =>
    path.basename(file) === target || path.basename(file, path.extname(file)) === target;
  const { entries } = lookup.inventory;
  const loaded = entries.find(
    (e): e is OkEntry => e.status === "ok" && e.hook.sourceKind === "plugin" && named(e.hook.file),
  );
  if (loaded) return pluginHook(lookup, loaded, event);
  for (const e of entries) {
    if (e.status === "unloaded" && named(e.plugin.file)) throw unloadedPluginError(e);
    if (e.status === "broken" && e.broken.sourceKind === "plugin" && named(e.broken.file))
      throw brokenError(e.broken, lookup.stderrOf);
  }
  throw new UsageError(noHookNamed(lookup.inventory, target));
}

/** The hook of a plugin file the user named: its only one, the one on `--event`, else a choice to make. */
function pluginHook(lookup: Lookup, first: OkEntry, event: HookEventName | undefined): Target {
  const file = first.hook.file;
  const all = lookup.inventory.entries.filter(
    (e): e is OkEntry =>
      e.status === "ok" && e.hook.sourceKind === "plugin" && e.hook.file === file,
  );
  const onEvent = event === undefined ? [] : all.filter((e) => e.hook.events.includes(event));
  const chosen = onEvent.length > 0 ? onEvent : all;
  if (chosen.length > 1) {
    const hooks = chosen
      .map((e) => `  ${inertText(e.hook.name)} (${inertText(e.hook.events.join(", "))})`)
      .join("\n");
    // --event helps only when they listen to different events.
    const events = new Set(chosen.map((e) => e.hook.events.join()));
    const pick = onEvent.length === 0 && events.size > 1 ? " (or pick its event with --event)" : "";
    throw new UsageError(
      `plugin ${inertText(file)} registers ${chosen.length} hooks${onEvent.length > 0 ? ` on ${event}` : ""}:\n${hooks}\nName one: \`acai hooks test <name>\`${pick}.`,
    );
  }
  const only = chosen[0] ?? first;
  return { hook: only.hook, untrusted: only.trust === "untrusted", adHoc: false };
}

/** An untrusted project plugin: acai imports none before trust, not even for a test. */
function unloadedPluginError(entry: UnloadedEntry): CliError {
  return new CliError(
    `plugin ${inertText(entry.plugin.file)} is a project plugin, and this project is not trusted: acai imports no project plugin before you trust the project, not even to learn its hooks. Review it, run \`acai hooks trust\`, then test its hooks by name (\`acai hooks list\` shows them).`,
    EXIT.untrustedHooks,
  );
}

async function describe(lookup: Lookup, entry: UnknownEntry): Promise<HookDefinition> {
  const result = await describeOne(entry.candidate, lookup.describeOptions);
  if (!("launch" in result)) throw brokenError(result, lookup.stderrOf);
  return result;
}

async function realOrResolved(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

/** The files a path may name an entry by (a HOOK.md hook: its folder and script too). */
async function filesOf(entry: HookEntry): Promise<string[]> {
  const files: string[] = [];
  switch (entry.status) {
    case "ok":
      files.push(entry.hook.file);
      if (entry.hook.sourceKind === "hook_md") {
        files.push(path.dirname(entry.hook.file));
        files.push(...entry.hook.launch.args, entry.hook.launch.command);
      }
      break;
    case "broken":
      files.push(entry.broken.file);
      if (entry.broken.sourceKind === "hook_md") files.push(path.dirname(entry.broken.file));
      break;
    case "unknown":
      files.push(entry.candidate.path);
      break;
    case "unloaded":
      files.push(entry.plugin.file);
      break;
    default:
      return entry satisfies never;
  }
  return Promise.all(files.map(realOrResolved));
}

function brokenError(broken: BrokenHook, stderrOf: StderrOf): CliError {
  const cause = meaningfulErrorLine(stderrOf(broken.file) ?? "");
  const detail =
    cause !== "" && !broken.reason.includes(cause)
      ? `\n  its error output says: ${inertText(cause)}`
      : "";
  // A plugin that failed as a whole has no hook name: it is the plugin that is broken.
  const what = broken.name === undefined && broken.sourceKind === "plugin" ? "plugin" : "hook";
  return new CliError(
    `${what} ${inertText(broken.name ?? path.basename(broken.file))} (${inertText(broken.file)}) is broken and would not run: ${inertText(broken.reason)}${detail}`,
    EXIT.error,
  );
}

/** "no hook named X", with every name acai knows (run nothing to learn more). */
function noHookNamed(inventory: Inventory, target: string): string {
  const names = new Set<string>();
  for (const entry of inventory.entries) {
    if (entry.status === "ok") names.add(entry.hook.name);
    else if (entry.status === "broken")
      names.add(entry.broken.name ?? path.basename(entry.broken.file));
    else if (entry.status === "unloaded") names.add(path.basename(entry.plugin.file));
    else names.add(path.basename(entry.candidate.path));
  }
  const known =
    names.size === 0
      ? "There are no hooks here."
      : `Known hooks: ${[...names].sort().map(inertText).join(", ")}.`;
  return `no hook named "${inertText(target)}". ${known} \`acai hooks list\` shows every hook; an untrusted executable is found by its file name (its own name is not known until it runs), and you can also give a file path.`;
}
