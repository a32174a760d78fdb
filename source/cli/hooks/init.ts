/**
 * `acai hooks init <name> [--type command|http|prompt|agent|mcp_tool] [--lang bash|python|node|ts]
 * [--event E] [--mode spawn|persistent] [--force]`: a command hook is an executable in
 * .acai/hooks/; the other types are an entry in .acai/settings.json (init-settings.ts).
 */

import { constants as fsConstants } from "node:fs";
import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Command, InvalidArgumentError, Option } from "commander";
import { resolveProjectPaths } from "../../config/paths.js";
import type { HookEventName } from "../../hooks/contract/definition.js";
import { normalizeEventName } from "../../hooks/contract/schemas/metadata.js";
import type { CommandContext } from "../command-context.js";
import { runToolkitCommand } from "../commands/run-command.js";
import { UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import { renderPersistentSkeleton } from "./init-persistent.js";
import { SETTINGS_HOOK_TYPES, type SettingsHookType } from "./init-settings.js";
import { INIT_EXTENSIONS, INIT_LANGS, type InitLang, renderSkeleton } from "./init-templates.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function parseName(value: string): string {
  if (!NAME.test(value)) {
    throw new InvalidArgumentError(
      "use letters, digits, '.', '_' or '-' (starting with a letter or digit, at most 64).",
    );
  }
  return value;
}

export function parseEventOption(value: string): HookEventName {
  const event = normalizeEventName(value.trim());
  if (!event) {
    throw new InvalidArgumentError(
      "unknown event; use before_tool, after_tool, user_prompt, before_stop, … (or a Claude Code name such as PreToolUse). See docs/hooks.md.",
    );
  }
  return event;
}

/** `acai-agent/hooks` when the project can resolve it, otherwise this acai's own build of the helper. */
function sdkImportFor(projectRoot: string): string {
  try {
    createRequire(path.join(projectRoot, "package.json")).resolve("acai-agent/hooks");
    return "acai-agent/hooks";
  } catch {
    return fileURLToPath(new URL("../../sdk/hooks.js", import.meta.url));
  }
}

const INIT_MODES = ["spawn", "persistent"] as const;
type InitMode = (typeof INIT_MODES)[number];

interface InitOptions {
  lang: InitLang;
  event: HookEventName;
  /** Default spawn: a process per event; persistent: one per session (hooks.md §6.4). */
  mode?: InitMode;
  force: boolean;
}

async function initHook(
  cwd: string,
  name: string,
  options: InitOptions,
): Promise<{ file: string }> {
  const project = resolveProjectPaths(cwd);
  const file = path.join(project.hooksDir, `${name}${INIT_EXTENSIONS[options.lang]}`);
  const args = {
    name,
    event: options.event,
    lang: options.lang,
    sdkImport: sdkImportFor(project.root),
  };
  const source =
    options.mode === "persistent" ? renderPersistentSkeleton(args) : renderSkeleton(args);
  await fs.mkdir(project.hooksDir, { recursive: true });
  try {
    await fs.writeFile(file, source, { flag: options.force ? "w" : "wx", mode: 0o755 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new UsageError(
        `${path.relative(cwd, file)} already exists; pick another name or pass --force to overwrite it.`,
      );
    }
    throw error;
  }
  // The mode of writeFile is masked by umask and ignored for an existing file.
  const stat = await fs.stat(file);
  await fs.chmod(file, stat.mode | fsConstants.S_IXUSR | fsConstants.S_IXGRP | fsConstants.S_IXOTH);
  return { file };
}

export function registerHooksInit(hooks: Command, ctx: CommandContext): void {
  hooks
    .command("init")
    .description("write a working, commented hook skeleton into .acai/hooks/")
    .argument("<name>", "hook name (also the file name)", parseName)
    .addOption(new Option("--lang <lang>", "language").choices(INIT_LANGS).default("bash"))
    .option(
      "--event <event>",
      "event it handles (acai or Claude Code name)",
      parseEventOption,
      "before_tool",
    )
    .addOption(
      new Option(
        "--mode <mode>",
        "spawn: a process per event; persistent: one process per session answering a request per line",
      )
        .choices(INIT_MODES)
        .default("spawn"),
    )
    .addOption(
      new Option(
        "--type <type>",
        "command: an executable in .acai/hooks/; http, prompt, agent, mcp_tool: an entry in .acai/settings.json",
      )
        .choices(["command", ...SETTINGS_HOOK_TYPES])
        .default("command"),
    )
    .option("--force", "overwrite an existing file (or settings entry of that name)", false)
    .action(
      (
        name: string,
        raw: {
          lang: InitLang;
          event: HookEventName;
          mode: InitMode;
          type: "command" | SettingsHookType;
          force: boolean;
        },
      ) =>
        runToolkitCommand(ctx, async () => {
          const { io } = ctx;
          if (raw.type !== "command") return initSettingsHook(io, name, { ...raw, type: raw.type });
          const { file } = await initHook(io.cwd, name, raw);
          const rel = path.relative(io.cwd, file);
          if (raw.lang === "ts") {
            const [{ typeScriptNodeWarning }, { acaiNode }] = await Promise.all([
              import("./init-node.js"),
              import("../commands/hook-runner.js"),
            ]);
            const warning = typeScriptNodeWarning(acaiNode(), rel);
            if (warning) io.stderr.write(`acai: warning: ${warning}\n`);
          }
          io.stdout.write(
            `Wrote ${rel} (${raw.lang}${raw.mode === "persistent" ? ", persistent" : ""}, on ${raw.event}).\n` +
              `Try it:  acai hooks test ${rel} --event ${raw.event}\n` +
              "Project hooks run only once trusted: after editing it, run `acai hooks trust`.\n",
          );
          return EXIT.ok;
        }),
    );
}

/** A settings entry of a type that starts no process, added to the project's .acai/settings.json. */
async function initSettingsHook(
  io: CommandContext["io"],
  name: string,
  options: { type: SettingsHookType; event: HookEventName; force: boolean },
): Promise<number> {
  const [{ readSettingsObject, writeSettingsObject }, { settingsEntry, withEntry }] =
    await Promise.all([import("../../config/settings-file.js"), import("./init-settings.js")]);
  const file = resolveProjectPaths(io.cwd).settingsFile;
  const rel = path.relative(io.cwd, file);
  const read = readSettingsObject(file);
  if (!read.ok) throw new UsageError(read.error);
  const added = withEntry(
    read.value,
    options.event,
    settingsEntry(options.type, name),
    options.force,
  );
  if (!added.ok) throw new UsageError(`${rel}: ${added.error}; pick another name or pass --force.`);
  const wrote = writeSettingsObject(file, added.value, { refuseLinks: true });
  if (!wrote.ok) throw new UsageError(`cannot write ${rel}: ${wrote.error}`);
  io.stdout.write(
    `Added the ${options.type} hook "${name}" on ${options.event} to ${rel}; fill in its fields (docs/hooks.md, "Hook types").\n` +
      (options.type === "http"
        ? 'A project\'s http hook posts only to URLs your own settings allow: add its URL to "allowedHttpHookUrls" in ~/.acai/settings.json.\n'
        : "") +
      "Project hooks run only once trusted: after editing it, run `acai hooks trust`.\n",
  );
  return EXIT.ok;
}
