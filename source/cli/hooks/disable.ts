/**
 * `acai hooks disable NAME` / `acai hooks enable NAME`: add the name to, or
 * take it from, `disabledHooks` in the user's settings (`$ACAI_HOME/settings.json`),
 * never a project's — a project's file is the project's, and trust covers it.
 * The name is one `acai hooks list` shows; an unknown one is refused with the
 * nearest known name. The file is rewritten whole and atomically, its other
 * fields kept.
 */
import path from "node:path";
import type { Command } from "commander";
import { resolveAcaiPaths } from "../../config/paths.js";
import { readSettingsObject, writeSettingsObject } from "../../config/settings-file.js";
import { nearestName } from "../../shared/nearest.js";
import { inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import type { Inventory } from "./inventory.js";

type Switch = "disable" | "enable";

export function registerHooksDisable(hooks: Command, ctx: CommandContext): void {
  for (const which of ["disable", "enable"] as const) {
    hooks
      .command(which)
      .description(
        which === "disable"
          ? "stop a hook from running: adds its name to disabledHooks in your settings (never the project's)"
          : "let a hook you disabled run again: takes its name from disabledHooks in your settings",
      )
      .argument("<name>", "the hook's name, as `acai hooks list` shows it")
      .action((name: string) => runToolkitCommand(ctx, () => switchHook(ctx, which, name)));
  }
}

async function switchHook(ctx: CommandContext, which: Switch, name: string): Promise<number> {
  const { io } = ctx;
  const [{ withInventory }, { hookProcessRunner }] = await Promise.all([
    import("./inventory.js"),
    import("../commands/hook-runner.js"),
  ]);
  const runner = await hookProcessRunner();
  const where = { cwd: io.cwd, env: io.env, homeDir: io.homeDir, runner };
  const known = await withInventory(where, async (inventory) => namesOf(inventory));
  const file = path.join(
    resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd }).home,
    "settings.json",
  );
  const settings = readSettings(file);
  const listed = listedNames(settings, file);
  // A name already in the list may be taken out even when no hook has it any more.
  if (!known.has(name) && !(which === "enable" && listed.includes(name))) {
    throw new UsageError(unknownName(name, [...known.keys()]));
  }
  const shown = inertText(name);
  const next = which === "disable" ? addName(listed, name) : listed.filter((n) => n !== name);
  if (next.length === listed.length) {
    io.stdout.write(
      which === "disable"
        ? `${shown} is already in disabledHooks of ${file}; nothing was changed.\n`
        : `${notListed(shown, file, known.get(name))}\n`,
    );
    // Nothing to take out, yet the hook is off: enable could not do what was asked.
    return which === "enable" && known.get(name) !== undefined ? EXIT.error : EXIT.ok;
  }
  const { disabledHooks: _old, ...rest } = settings;
  const value = next.length === 0 ? rest : { ...rest, disabledHooks: next };
  const written = writeSettingsObject(file, value, { refuseLinks: false });
  if (!written.ok) throw new UsageError(`${written.error}; nothing was changed.`);
  io.stdout.write(
    which === "disable"
      ? `Disabled ${shown}: added to disabledHooks in ${file}. It stays listed (acai hooks list) and the audit log says why it does not run; \`acai hooks enable ${shown}\` undoes it.\n`
      : `Enabled ${shown}: taken from disabledHooks in ${file}.${stillOff(known.get(name))}\n`,
  );
  return EXIT.ok;
}

/** Every hook name the inventory shows, with why the settings keep it off (if they do). */
function namesOf(inventory: Inventory): Map<string, string | undefined> {
  const names = new Map<string, string | undefined>();
  for (const entry of inventory.entries) {
    if (entry.status === "ok") names.set(entry.hook.name, entry.hook.disabled);
    else if (entry.status === "broken" && entry.broken.name !== undefined)
      names.set(entry.broken.name, undefined);
  }
  return names;
}

function readSettings(file: string): Record<string, unknown> {
  const read = readSettingsObject(file);
  if (!read.ok) throw new UsageError(`${read.error}; nothing was changed.`);
  return read.value;
}

function listedNames(settings: Record<string, unknown>, file: string): string[] {
  const list = settings.disabledHooks ?? [];
  if (!Array.isArray(list) || list.some((n) => typeof n !== "string")) {
    throw new UsageError(
      `${file}: "disabledHooks" is not a list of hook names: fix it first; nothing was changed.`,
    );
  }
  return list as string[];
}

function addName(list: readonly string[], name: string): string[] {
  return list.includes(name) ? [...list] : [...list, name];
}

function unknownName(name: string, known: readonly string[]): string {
  const nearest = nearestName(name, known);
  const hint = nearest === undefined ? "" : ` Did you mean ${inertText(nearest)}?`;
  return `No hook is named ${inertText(name)}.${hint} \`acai hooks list\` shows every hook's name; nothing was changed.`;
}

/** `enable` of a name the user's list does not hold: say what keeps the hook off instead, if anything. */
function notListed(name: string, file: string, disabled: string | undefined): string {
  const base = `${name} is not in disabledHooks of ${file}; nothing was changed.`;
  if (disabled === undefined) return `${base} It is not disabled.`;
  return `${base} It is off because ${inertText(disabled)}; acai hooks enable only writes your settings.`;
}

/** After `enable`: what else still keeps the hook off, if anything but the user's list did. */
function stillOff(disabled: string | undefined): string {
  if (disabled === undefined || disabled.startsWith("disabledHooks in the user's settings"))
    return "";
  return ` It is still off: ${inertText(disabled)}.`;
}
