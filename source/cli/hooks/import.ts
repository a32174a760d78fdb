/** `acai hooks import --from claude [FILE] [--to FILE] [--dry-run]` */
import { mkdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { type Command, Option } from "commander";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "../../config/json-depth.js";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "../../config/read-regular-file.js";
import { commandPaths } from "../../project/command-paths.js";
import { inertLines, inertText } from "../../terminal/inert-text.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import type { ConversionResult } from "./import-claude.js";
import type { ImportedExtras } from "./import-extras.js";
import type { PermissionsConversion } from "./import-permissions.js";

interface ImportOptions {
  from: "claude";
  to?: string;
  dryRun: boolean;
}

/**
 * A settings file as JSON (undefined when missing). The project's
 * `.claude/settings.json` is project text: read like every project file (a
 * regular file, non-blocking open, size cap) and depth-checked before parsing.
 */
async function readJsonFile(
  file: string,
  what: string,
): Promise<Record<string, unknown> | undefined> {
  const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
  if (!read.ok) {
    if (read.problem === "missing") return undefined;
    throw new CliError(`cannot read ${what} ${file}: ${read.reason}.`, EXIT.error);
  }
  const text = read.data.toString("utf8");
  if (jsonTextTooDeep(text, MAX_JSON_DEPTH)) {
    throw new UsageError(
      `${what} ${file} nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep; fix it first.`,
    );
  }
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      throw new Error("the top level is not an object");
    }
    return value as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(
      `${what} ${file} is not valid JSON (${(error as Error).message}); fix it first.`,
    );
  }
}

/**
 * The script files a command names inside the project (`commandPaths`), as
 * text: regular files under the size cap, not binary; others are left out.
 */
function namedScripts(
  command: string,
  projectDir: string,
  show: (file: string) => string,
): Array<{ file: string; text: string }> {
  const scripts: Array<{ file: string; text: string }> = [];
  for (const file of commandPaths(command, projectDir)) {
    const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
    if (!read.ok || read.data.includes(0)) continue;
    scripts.push({ file: show(file), text: read.data.toString("utf8") });
  }
  return scripts;
}

/** FILE, else the project's `.claude/settings.json`, else `~/.claude/settings.json`. */
async function sourceFile(
  given: string | undefined,
  cwd: string,
  homeDir: string,
): Promise<string> {
  if (given !== undefined) return path.resolve(cwd, given);
  const candidates = [
    path.join(cwd, ".claude", "settings.json"),
    path.join(homeDir, ".claude", "settings.json"),
  ];
  for (const file of candidates) {
    // Only whether it is there: a FIFO or /dev/zero named like it is reported when read.
    if (
      await stat(file).then(
        () => true,
        () => false,
      )
    )
      return file;
  }
  throw new UsageError(
    `no Claude Code settings found (looked for ${candidates.join(" and ")}); pass the file: acai hooks import --from claude path/to/settings.json`,
  );
}

export function registerHooksImport(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("import")
    .description("convert another agent's hook settings into .acai/settings.json")
    .addOption(
      new Option("--from <agent>", "where the hooks come from")
        .choices(["claude"])
        .makeOptionMandatory(),
    )
    .argument(
      "[file]",
      "settings file (default: .claude/settings.json, else ~/.claude/settings.json)",
    )
    .option("--to <file>", "acai settings file to write (default: .acai/settings.json)")
    .option("--dry-run", "print the result instead of writing it", false)
    .action((file: string | undefined, raw: ImportOptions) =>
      runToolkitCommand(ctx, () => importHooks(ctx, file, raw)),
    );
}

/** What one import carries over, and where it goes. */
interface Imported {
  target: string;
  /** `target` relative to the working directory when inside it. */
  rel: (file: string) => string;
  conversion: ConversionResult;
  permissions: PermissionsConversion;
  merged: { hooks: Record<string, unknown>; added: number; skipped: number };
  /** Settings beyond hooks and permissions (env, model). */
  extras: ImportedExtras;
  rulesAdded: number;
  /** Anything added: the file is written. */
  changed: boolean;
  /** The acai settings file after the import, as written. */
  text: string;
}

async function importHooks(
  ctx: CommandContext,
  file: string | undefined,
  raw: ImportOptions,
): Promise<number> {
  const { io } = ctx;
  const from = await sourceFile(file, io.cwd, io.homeDir);
  const source = await readJsonFile(from, "Claude Code settings file");
  if (source === undefined) throw new UsageError(`${from} does not exist.`);
  const target = path.resolve(io.cwd, raw.to ?? path.join(".acai", "settings.json"));
  const rel = (f: string) => {
    const r = path.relative(io.cwd, f);
    return r.startsWith("..") ? f : r;
  };
  const imported = await convert(source, { target, rel, cwd: io.cwd });
  const out = [
    `Importing Claude Code hooks from ${rel(from)} into ${rel(target)}`,
    ...conversionLines(imported, source.hooks === undefined),
  ];
  if (raw.dryRun) {
    out.push(`Dry run: ${rel(target)} would become:`, imported.text.trimEnd());
  } else {
    out.push(...(await writeImported(imported)));
  }
  io.stdout.write(`${inertLines(out.join("\n"))}\n`);
  return EXIT.ok;
}

async function convert(
  source: Record<string, unknown>,
  where: { target: string; rel: (file: string) => string; cwd: string },
): Promise<Imported> {
  const { convertClaudeHooks, mergeIntoSettingsHooks } = await import("./import-claude.js");
  const { secretsOfHook } = await import("./import-secrets.js");
  const { convertClaudePermissions } = await import("./import-permissions.js");
  const { importExtras } = await import("./import-extras.js");
  const conversion = convertClaudeHooks(source.hooks, {
    secretsOf: (command) => secretsOfHook(command, namedScripts(command, where.cwd, where.rel)),
  });
  const existing = (await readJsonFile(where.target, "acai settings file")) ?? {};
  const permissions = convertClaudePermissions(source.permissions, existing.permissions);
  const merged = mergeIntoSettingsHooks(existing.hooks, conversion.hooks);
  const extras = importExtras(source, existing);
  const rulesAdded = permissions.added.length + (permissions.mode === undefined ? 0 : 1);
  const changed = merged.added > 0 || rulesAdded > 0 || extras.added.length > 0;
  const settings = {
    ...existing,
    ...extras.set,
    // Moved: acai reads its own copy now, not Claude Code's files beside it (config/claude-settings.ts).
    ...(changed ? { claudeSettings: false } : {}),
    ...(merged.added > 0 || existing.hooks !== undefined ? { hooks: merged.hooks } : {}),
    ...(permissions.permissions === undefined ? {} : { permissions: permissions.permissions }),
  };
  const text = `${JSON.stringify(settings, null, 2)}\n`;
  return {
    target: where.target,
    rel: where.rel,
    conversion,
    permissions,
    merged,
    extras,
    rulesAdded,
    changed,
    text,
  };
}

/** What is carried over, changed, passed on, worth knowing and left out, a line each. */
function conversionLines(imported: Imported, noHooksSection: boolean): string[] {
  const { conversion, permissions, extras } = imported;
  const out: string[] = [];
  if (conversion.count === 0) {
    out.push(
      noHooksSection
        ? '  it has no "hooks" section: no hook to import.'
        : "  no hook could be carried over.",
    );
  }
  for (const [event, groups] of Object.entries(conversion.hooks)) {
    for (const group of groups ?? []) {
      for (const entry of group.hooks) {
        const env = entry.env === undefined ? "" : `, env: ${entry.env.join(", ")}`;
        out.push(
          `  + ${inertText(event)}${group.matcher !== undefined ? ` [${inertText(group.matcher)}]` : ""}: ${inertText(entry.command)} (timeout ${entry.timeout} s${inertText(env)})`,
        );
      }
    }
  }
  for (const rule of permissions.added) out.push(`  + permissions.${inertText(rule)}`);
  if (permissions.mode !== undefined) {
    out.push(`  + permissions.defaultMode: ${inertText(permissions.mode)}`);
  }
  out.push(
    ...section("Changed on the way:", "~", conversion.changes),
    ...section(
      "Secrets passed on (acai removes secret-looking variables from hooks unless listed in env):",
      "$",
      conversion.secrets,
    ),
    ...section("Worth knowing:", "!", [...conversion.notes, ...permissions.notes]),
  );
  for (const line of extras.added) out.push(`  + ${inertText(line)}`);
  out.push(
    ...section("Not carried over:", "-", [
      ...conversion.dropped,
      ...permissions.dropped,
      ...extras.dropped,
    ]),
  );
  return out;
}

/** A heading and its lines, each marked; nothing when there are none. */
function section(heading: string, mark: string, lines: readonly string[]): string[] {
  if (lines.length === 0) return [];
  return [heading, ...lines.map((line) => `  ${mark} ${inertText(line)}`)];
}

/** Writes the settings file when anything was added (through a temporary file); the lines that say so. */
async function writeImported(imported: Imported): Promise<string[]> {
  const { target, rel, merged, permissions, rulesAdded, changed } = imported;
  if (changed) {
    await mkdir(path.dirname(target), { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    await writeFile(temp, imported.text, "utf8");
    await rename(temp, target);
  }
  const skipped = merged.skipped + permissions.skipped;
  const out = [
    `${changed ? `Wrote ${rel(target)}` : `${rel(target)} unchanged`}: ${merged.added} hook(s)${rulesAdded > 0 ? `, ${rulesAdded} permission setting(s)` : ""} added${skipped > 0 ? `, ${skipped} already there` : ""}.`,
  ];
  if (changed) {
    out.push(
      `acai no longer reads Claude Code's settings files beside its own ("claudeSettings": false in ${rel(target)}), so nothing runs twice.`,
    );
  }
  if (merged.added > 0) {
    out.push(
      "Commands run as through /bin/sh -c with CLAUDE_PROJECT_DIR set (a plain one starts its program directly, the same words and PATH), and Claude Code's JSON answers are understood, so they behave as before.",
    );
  }
  if (rulesAdded > 0) {
    out.push(
      "Permission rules keep Claude Code's syntax and meaning (docs/permissions.md); a deny from any settings file beats every allow.",
    );
  }
  if (changed && !rel(target).startsWith("/")) {
    out.push(
      "The project's settings changed: review them with `acai hooks list`, then `acai hooks trust`.",
    );
  }
  return out;
}
