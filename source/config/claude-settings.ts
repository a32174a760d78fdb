/**
 * Claude Code's settings files, read as acai settings (issue 23): a Claude
 * Code user's hooks, permission rules, `env` and `model` work in acai as they
 * are. `~/.claude/settings.json` is the user's; the project's
 * `.claude/settings.json` and `.claude/settings.local.json` are project files
 * (in the trust set, applied only once the project is trusted). acai's own
 * files load after them, so acai's win on conflict. `"claudeSettings": false`
 * in acai's settings turns the reading off.
 *
 * Only what maps is carried: `hooks` (the same shape), `permissions` (the same
 * rule syntax; `allow`, `deny`, `ask`, `defaultMode`), `env`, and `model`
 * (Claude Code's model names and aliases as `anthropic:` models). Everything
 * else in the file is Claude Code's business and is passed over without a
 * warning. A key that is carried but does not validate is left out with a
 * warning naming the file — except the deny and ask rules: an unreadable
 * guard stops the run, as a bad acai settings file does.
 */

import { PARSED_ONCE } from "../shared/parsed-once.js";
import { SettingsError } from "./settings.js";
import { type Settings, settingsFieldSchema } from "./settings-schema.js";

/** Claude Code's aliases, as the Anthropic model each stands for. */
const MODEL_ALIASES: Readonly<Record<string, string>> = {
  sonnet: "claude-sonnet-4-5",
  opus: "claude-opus-4-1",
  haiku: "claude-haiku-4-5",
  default: "claude-sonnet-4-5",
  opusplan: "claude-opus-4-1",
};

/** `model` as an acai model spec, or undefined when it does not map. */
export function claudeModelSpec(model: string): string | undefined {
  const name = model.trim().replace(/\[1m\]$/i, "");
  const alias = MODEL_ALIASES[name.toLowerCase()];
  if (alias !== undefined) return `anthropic:${alias}`;
  return /^claude-[A-Za-z0-9.-]+$/.test(name) ? `anthropic:${name}` : undefined;
}

const CARRIED = ["hooks", "permissions", "env", "model"] as const;

/** A Claude Code settings object → the acai settings it stands for, with what was left out. */
export function translateClaudeSettings(
  file: string,
  raw: Record<string, unknown>,
): { settings: Settings; warnings: string[] } {
  const warnings: string[] = [];
  const carried: Record<string, unknown> = {};
  for (const key of CARRIED) {
    if (raw[key] === undefined) continue;
    const value =
      key === "model"
        ? modelOf(file, raw.model, warnings)
        : key === "permissions"
          ? permissionsOf(file, raw.permissions, warnings)
          : raw[key];
    if (value === undefined) continue;
    const parsed = settingsFieldSchema(key).safeParse(value, PARSED_ONCE);
    if (parsed.success) carried[key] = parsed.data;
    else warnings.push(notUsed(file, key, parsed.error.issues[0]?.message));
  }
  return { settings: carried as Settings, warnings };
}

function notUsed(file: string, key: string, why: string | undefined): string {
  return `Claude Code settings file ${file}: "${key}" is not used (${why ?? "invalid"}).`;
}

function modelOf(file: string, model: unknown, warnings: string[]): unknown {
  if (typeof model !== "string") return model;
  const spec = claudeModelSpec(model);
  if (spec === undefined) {
    warnings.push(
      `Claude Code settings file ${file}: model "${model}" has no acai equivalent and is not used (write "model": "anthropic:…" in acai's settings).`,
    );
  }
  return spec;
}

/**
 * The permission lists one by one: `allow` and `defaultMode` that do not
 * validate are left out with a warning; `deny` and `ask` that do not are an
 * error, since dropping a guard would let through what the user forbade.
 */
function permissionsOf(file: string, permissions: unknown, warnings: string[]): unknown {
  if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
    throw unreadableGuards(file, "it is not an object");
  }
  const record = permissions as Record<string, unknown>;
  const shape = settingsFieldSchema("permissions").unwrap()._zod.innerType.shape;
  const out: Record<string, unknown> = {};
  for (const key of ["deny", "ask", "allow", "defaultMode"] as const) {
    if (record[key] === undefined) continue;
    const parsed = shape[key].safeParse(record[key], PARSED_ONCE);
    const why = parsed.error?.issues[0]?.message;
    if (parsed.success) out[key] = parsed.data;
    else if (key === "deny" || key === "ask") throw unreadableGuards(file, `${key}: ${why}`);
    else warnings.push(notUsed(file, `permissions.${key}`, why));
  }
  return out;
}

function unreadableGuards(file: string, why: string): SettingsError {
  return new SettingsError(
    file,
    `Claude Code settings file ${file}: its permission rules cannot be read (${why}). acai reads this file's deny and ask rules as its own, and does not run without them: fix the file, or set "claudeSettings": false in ~/.acai/settings.json.`,
  );
}
