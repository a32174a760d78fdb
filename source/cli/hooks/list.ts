/** `acai hooks list [--json]`: every hook from every source, and why broken ones do not run. */
import path from "node:path";
import type { Command } from "commander";
import {
  canAskAhead,
  type HookDefinition,
  type HookMatcher,
  type HookRunMode,
  type HookSourceKind,
  runModeOf,
} from "../../hooks/contract/definition.js";
import { inertText, jsonForTerminal } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { EXIT } from "../exit-codes.js";
import type { HookEntry, Inventory } from "./inventory.js";
import { writtenMatcher } from "./matcher-text.js";

interface ListedHook {
  name: string;
  status: "ok" | "broken" | "unknown";
  scope: "user" | "project";
  source: HookSourceKind;
  file: string;
  trust: "user" | "trusted" | "untrusted";
  events?: string[];
  matcher?: HookMatcher;
  priority?: number;
  timeout_ms?: number;
  async?: boolean;
  /** How it runs when it is not spawned per event: a persistent process, a plugin's handler, or a hook type that starts no process. */
  mode?: Exclude<HookRunMode, "spawn">;
  /** Set as written (decision 0012); `ask_ahead_ignored` when the hook is spawned. */
  ask_ahead?: true;
  ask_ahead_ignored?: true;
  failure?: "open" | "closed";
  env?: string[];
  description?: string;
  /** What runs: the executable, the HOOK.md script (with its interpreter) or the shell command. */
  command?: string;
  /** Broken: why it is not run. */
  reason?: string;
  /** Registered by a plugin after its register() returned. */
  late?: true;
  /** Configured but kept from running (`enabled: false`, `disableAllHooks`, `disabledHooks`): why. */
  disabled?: string;
  note?: string;
}

function commandOf(hook: HookDefinition): string {
  return [hook.launch.command, ...hook.launch.args].join(" ");
}

function toListed(entry: HookEntry): ListedHook {
  switch (entry.status) {
    case "ok": {
      const { hook } = entry;
      const mode = runModeOf(hook);
      return {
        name: hook.name,
        status: "ok",
        scope: hook.scope,
        source: hook.sourceKind,
        file: hook.file,
        trust: entry.trust,
        events: hook.events,
        // As written: a settings hook's Claude matcher (`mcp__.*`), not acai's regular expression.
        matcher: writtenMatcher(hook),
        priority: hook.priority,
        timeout_ms: hook.timeoutMs,
        async: hook.async,
        ...(mode === "spawn" ? {} : { mode }),
        ...(hook.askAhead === true ? { ask_ahead: true as const } : {}),
        ...(hook.askAhead === true && !canAskAhead(hook)
          ? { ask_ahead_ignored: true as const }
          : {}),
        failure: hook.failure,
        env: hook.env,
        ...(hook.description === undefined ? {} : { description: hook.description }),
        command: commandOf(hook),
        ...(hook.disabled === undefined ? {} : { disabled: hook.disabled }),
        ...(entry.fromCache
          ? { note: "metadata from the describe cache (untrusted: the file was not run)" }
          : {}),
      };
    }
    case "broken":
      return {
        name: entry.broken.name ?? path.basename(entry.broken.file),
        status: "broken",
        scope: entry.broken.scope,
        source: entry.broken.sourceKind,
        file: entry.broken.file,
        trust: entry.trust,
        reason: entry.broken.reason,
      };
    case "unknown":
      return {
        name: path.basename(entry.candidate.path),
        status: "unknown",
        scope: entry.candidate.scope,
        source: "executable",
        file: entry.candidate.path,
        trust: entry.trust,
        command: entry.candidate.path,
        note: "not described yet: untrusted project executables are not run, not even to read their metadata",
      };
    case "unloaded":
      return {
        name: path.basename(entry.plugin.file),
        status: "unknown",
        scope: entry.plugin.scope,
        source: "plugin",
        file: entry.plugin.file,
        trust: entry.trust,
        note: "not loaded: untrusted project plugins are not imported, not even to learn their hooks",
      };
    default:
      return entry satisfies never;
  }
}

function askAheadText(hook: ListedHook): string {
  if (hook.ask_ahead !== true) return "";
  return hook.ask_ahead_ignored ? " · ask ahead (ignored: spawned)" : " · ask ahead";
}

function shortPath(file: string, projectDir: string, homeDir: string): string {
  const rel = path.relative(projectDir, file);
  if (rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel)) return rel;
  if (file.startsWith(`${homeDir}${path.sep}`)) return `~${file.slice(homeDir.length)}`;
  return file;
}

function matcherText(matcher: HookMatcher | undefined): string {
  const parts = Object.entries(matcher ?? {})
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return parts.length > 0 ? parts.join(" ") : "(any)";
}

const SOURCE_LABEL = {
  executable: "executable",
  hook_md: "HOOK.md",
  plugin: "plugin",
  settings: "settings",
  sdk: "sdk callback",
} as const;

function trustLine(inventory: Inventory): string {
  switch (inventory.projectTrust) {
    case "no-project-hooks":
      return "no project hooks, tools or settings";
    case "trusted":
      return "project hooks, tools and settings trusted";
    case "untrusted":
      return "project hooks NOT trusted — nothing of the project runs or applies until you review it and run `acai hooks trust`";
    default:
      return inventory.projectTrust satisfies never;
  }
}

/** Why a plugin's later hooks may be missing here: no session runs while the list is made. */
const LATE_NOTE =
  "a plugin may register more hooks after its register() returned (on a timer, in a handler): they join a running session, and are listed here only when registered by the time this list was made (no session runs here, so a handler's never are)";

/**
 * Every entry, with the hooks plugins registered late so far (after the
 * ones loaded, as a session orders them).
 */
function listedOf(inventory: Inventory): ListedHook[] {
  const late = inventory.late.arrived.flatMap((one) =>
    one.kind === "hook"
      ? [
          {
            ...toListed({
              status: "ok",
              hook: one.hook,
              trust: one.hook.scope === "user" ? "user" : "trusted",
            }),
            late: true as const,
            note: "registered after its plugin's register() returned",
          },
        ]
      : [],
  );
  return [...inventory.entries.map(toListed), ...late];
}

/** Late registrations that could not be loaded, so far. */
function lateProblems(inventory: Inventory): string[] {
  return inventory.late.arrived.flatMap((one) => (one.kind === "broken" ? [one.message] : []));
}

function formatList(inventory: Inventory, homeDir: string): string {
  const listed = listedOf(inventory);
  // Everything below but acai's own words is project text: shown inert (see inertText).
  const short = (file: string) => inertText(shortPath(file, inventory.projectDir, homeDir));
  const out: string[] = [
    `Hooks for the project root ${inertText(inventory.projectDir)} (${trustLine(inventory)})`,
  ];
  const section = (title: string) => out.push("", title);
  const ok = listed.filter((h) => h.status === "ok");
  const unknown = listed.filter((h) => h.status === "unknown" && h.source !== "plugin");
  const unloaded = listed.filter((h) => h.status === "unknown" && h.source === "plugin");
  const broken = listed.filter((h) => h.status === "broken");
  if (listed.length === 0) {
    section(
      "No hooks. Put executables in .acai/hooks/ (try `acai hooks init my-hook`), HOOK.md folders in .agents/hooks/, or `hooks` in .acai/settings.json; see docs/hooks.md.",
    );
  }
  if (ok.length > 0) section(`In run order (${ok.length}):`);
  for (const hook of ok) {
    const trust = hook.trust === "untrusted" ? "  [untrusted]" : "";
    const off = hook.disabled === undefined ? "" : "  [disabled]";
    out.push(
      `  ${inertText(hook.name)}  (${hook.scope} ${SOURCE_LABEL[hook.source]})${trust}${off}`,
    );
    if (hook.disabled !== undefined) out.push(`      disabled: ${inertText(hook.disabled)}`);
    if (hook.description) out.push(`      ${inertText(hook.description)}`);
    out.push(`      events:  ${inertText((hook.events ?? []).join(", "))}`);
    out.push(`      matcher: ${inertText(matcherText(hook.matcher))}`);
    out.push(
      `      priority ${hook.priority} · timeout ${hook.timeout_ms} ms · failure ${hook.failure}${hook.async ? " · async" : ""}${hook.mode === "persistent" ? " · persistent" : ""}${askAheadText(hook)}${hook.env && hook.env.length > 0 ? ` · env ${inertText(hook.env.join(","))}` : ""}`,
    );
    out.push(`      file:    ${short(hook.file)}`);
    if (hook.source === "settings" && hook.command)
      out.push(`      ${typeLabel(hook.mode)}${inertText(hook.command)}`);
    if (hook.note) out.push(`      note:    ${inertText(hook.note)}`);
  }
  if (unknown.length > 0) {
    section(
      `Not described yet (${unknown.length}) — untrusted executables are not run, not even for describe:`,
    );
    for (const hook of unknown) out.push(`  ? ${inertText(hook.name)}  (${short(hook.file)})`);
    out.push(
      "  Review them, then `acai hooks trust`; or `acai hooks test <file> --event E` to try one.",
    );
  }
  if (unloaded.length > 0) {
    section(
      `Plugins not loaded (${unloaded.length}) — untrusted project plugins are not imported, not even to learn their hooks:`,
    );
    for (const plugin of unloaded)
      out.push(`  ? ${inertText(plugin.name)}  (${short(plugin.file)})`);
    out.push("  Review them, then `acai hooks trust`: their hooks are listed once they load.");
  }
  if (broken.length > 0) {
    section(`Broken — not run (${broken.length}):`);
    for (const hook of broken) {
      out.push(
        `  ✗ ${inertText(hook.name)}  (${hook.scope} ${SOURCE_LABEL[hook.source]}, ${short(hook.file)})`,
      );
      out.push(`      ${inertText(hook.reason ?? "")}`);
    }
  }
  for (const warning of inventory.settingsWarnings) out.push("", `warning: ${inertText(warning)}`);
  for (const warning of lateProblems(inventory)) out.push("", `warning: ${inertText(warning)}`);
  if (inventory.plugins !== undefined) out.push("", `note: ${LATE_NOTE}`);
  return `${out.join("\n")}\n`;
}

export function registerHooksList(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("list")
    .description(
      "list every hook from every source: events, matcher, order, limits, trust; broken ones with the reason",
    )
    .option("--json", "print JSON for scripts", false)
    .action((raw: { json: boolean }) =>
      runToolkitCommand(ctx, async () => {
        const { io } = ctx;
        const [{ withInventory }, { hookProcessRunner }] = await Promise.all([
          import("./inventory.js"),
          import("../commands/hook-runner.js"),
        ]);
        const runProcess = await hookProcessRunner();
        const where = { cwd: io.cwd, env: io.env, homeDir: io.homeDir, runner: runProcess };
        // Plugins are loaded to learn their hooks, and stopped before anything is printed.
        const text = await withInventory(where, async (inventory) => {
          if (!raw.json) return formatList(inventory, io.homeDir);
          const data = {
            project: inventory.projectDir,
            project_trust: inventory.projectTrust,
            hooks: listedOf(inventory),
            warnings: [...inventory.settingsWarnings, ...lateProblems(inventory)],
            ...(inventory.plugins === undefined ? {} : { notes: [LATE_NOTE] }),
          };
          return `${jsonForTerminal(data, 2)}\n`;
        });
        io.stdout.write(text);
        return EXIT.ok;
      }),
    );
}

/** The label of a settings hook's target line: what it runs or reaches, by type. */
function typeLabel(mode: ListedHook["mode"]): string {
  switch (mode) {
    case "http":
      return "url:     ";
    case "prompt":
    case "agent":
      return `${mode}:  `.padEnd(9);
    case "mcp_tool":
      return "mcp:     ";
    case "callback":
      return "callback:";
    case undefined:
    case "persistent":
    case "plugin":
      return "command: ";
    default:
      return mode satisfies never;
  }
}
