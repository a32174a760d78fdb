import { PermissionsSettingsSchema } from "../permissions/rules.js";
import { PARSED_ONCE } from "../shared/parsed-once.js";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "./json-depth.js";
import { parseJsonWithLocation } from "./json-error.js";
import { SandboxSettingsSchema } from "./sandbox-settings.js";
import {
  CapabilitiesSchema,
  HookDefaultsSchema,
  isSettingsField,
  MemorySettingsSchema,
  ModelPriceSettingSchema,
  type Settings,
  settingsSchemaFor,
} from "./settings-schema.js";

export type { HookDefaults, Settings } from "./settings-schema.js";

/** Merged settings; `hooks` is never merged here, see `SettingsFile`. */
export type MergedSettings = Omit<Settings, "hooks" | "$schema">;
export type SettingsScope = "user" | "project";

/** One settings file that exists, with its raw `hooks` section for the hooks registry. */
export interface SettingsFile {
  path: string;
  scope: SettingsScope;
  hooks: unknown;
  /** sha256 of the file's whole text: a project file is part of the trusted set as a whole. */
  digest: string;
  /** What else the file sets (validated), for the trust review. */
  values: MergedSettings;
  /** A Claude Code settings file, read as the acai settings it stands for (claude-settings.ts). */
  dialect?: "claude";
}

export interface LoadedSettings {
  /** All files merged. Only for what a project may set without trust: prefer `user`/`project`. */
  settings: MergedSettings;
  /** The user's file alone. */
  user: MergedSettings;
  /** The project's files merged (local over shared); applies only once the project is trusted. */
  project: MergedSettings;
  /** Existing files, in load order (user, project, project local). */
  settingsFiles: SettingsFile[];
  warnings: string[];
}

export class SettingsError extends Error {
  override readonly name = "SettingsError";
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parses and validates the text of one settings file. Throws SettingsError naming the file and field. */
export function parseSettingsText(
  file: string,
  text: string,
): { settings: Settings; warnings: string[] } {
  const value = parseSettingsObject(file, text);
  const result = settingsSchemaFor(value).safeParse(value, PARSED_ONCE);
  if (!result.success) {
    const issue = result.error.issues[0];
    const field = issue ? formatPath(issue.path) : "(root)";
    const got = issue ? valueAt(value, issue.path) : undefined;
    throw new SettingsError(
      file,
      `Settings file ${file}: field "${field}" is invalid: ${issue?.message ?? "invalid value"} (got ${describeValue(got)}). Fix or remove "${field}".`,
    );
  }
  return { settings: result.data, warnings: unknownKeyWarnings(file, value) };
}

/** The file's JSON object (`{}` for an empty file); SettingsError naming the file and place otherwise. */
export function parseSettingsObject(file: string, text: string): Record<string, unknown> {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return {};
  // Measured before parsing: what reads the value afterwards (zod, merges, hashing) recurses.
  if (jsonTextTooDeep(body, MAX_JSON_DEPTH)) {
    throw new SettingsError(
      file,
      `Settings file ${file} nests objects or arrays more than ${MAX_JSON_DEPTH} levels deep, which no setting needs. Fix the file or remove it.`,
    );
  }
  const json = parseJsonWithLocation(body);
  if (!json.ok) {
    const { line, column } = json.location;
    throw new SettingsError(
      file,
      `Settings file ${file}:${line}:${column} is not valid JSON (${json.reason}). Fix the file or remove it.`,
    );
  }
  if (typeof json.value !== "object" || json.value === null || Array.isArray(json.value)) {
    throw new SettingsError(
      file,
      `Settings file ${file} must contain a JSON object ({ ... }), not ${describeType(json.value)}.`,
    );
  }
  return json.value as Record<string, unknown>;
}

function unknownKeyWarnings(file: string, value: object): string[] {
  const warnings: string[] = [];
  for (const key of Object.keys(value)) {
    if (!isSettingsField(key))
      warnings.push(`Settings file ${file}: unknown field "${key}" is ignored.`);
  }
  const defaults = (value as Record<string, unknown>).hookDefaults;
  if (defaults && typeof defaults === "object") {
    const knownDefaults = new Set(Object.keys(HookDefaultsSchema._zod.innerType.shape));
    for (const key of Object.keys(defaults)) {
      if (!knownDefaults.has(key)) {
        warnings.push(`Settings file ${file}: unknown field "hookDefaults.${key}" is ignored.`);
      }
    }
  }
  // A section's schema is built only for a file that has the section (a lazy schema builds at first use).
  for (const [section, shape] of [
    ["capabilities", () => CapabilitiesSchema._zod.innerType.shape],
    ["memory", () => MemorySettingsSchema._zod.innerType.shape],
    ["permissions", () => PermissionsSettingsSchema._zod.innerType.shape],
    ["sandbox", () => SandboxSettingsSchema._zod.innerType.shape],
  ] as const) {
    const given = (value as Record<string, unknown>)[section];
    if (!isPlainObject(given)) continue;
    const knownKeys = new Set(Object.keys(shape()));
    for (const key of Object.keys(given)) {
      if (!knownKeys.has(key))
        warnings.push(`Settings file ${file}: unknown field "${section}.${key}" is ignored.`);
    }
  }
  const pricing = (value as Record<string, unknown>).pricing;
  if (isPlainObject(pricing)) {
    const knownPrice = new Set(Object.keys(ModelPriceSettingSchema._zod.innerType.shape));
    for (const [model, price] of Object.entries(pricing)) {
      if (!isPlainObject(price)) continue;
      for (const key of Object.keys(price)) {
        if (!knownPrice.has(key)) {
          warnings.push(
            `Settings file ${file}: unknown field "pricing.${model}.${key}" is ignored.`,
          );
        }
      }
    }
  }
  return warnings;
}

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "(root)";
  return path
    .map((part, index) =>
      typeof part === "number" ? `[${part}]` : index === 0 ? String(part) : `.${String(part)}`,
    )
    .join("");
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const part of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[part];
  }
  return current;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Objects merge recursively; anything else (arrays included) is replaced by the later value. */
export function deepMerge(
  base: Record<string, unknown>,
  over: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) {
    if (value === undefined) continue;
    const prev = out[key];
    out[key] = isPlainObject(prev) && isPlainObject(value) ? deepMerge(prev, value) : value;
  }
  return out;
}
