/**
 * What `acai hooks import --from claude` carries besides hooks and permission
 * rules: `env` (merged under the target's own) and `model` (as the
 * `anthropic:` model it names, config/claude-settings.ts), and the list of
 * Claude Code's other keys it does not carry, so that nothing is dropped
 * without a word.
 */
import { claudeModelSpec } from "../../config/claude-settings.js";

/** Keys the import handles itself (hooks, permissions) or here (env, model). */
const HANDLED = new Set(["hooks", "permissions", "env", "model", "$schema"]);

export interface ImportedExtras {
  /** Fields to set in the target (only what changes it). */
  set: { env?: Record<string, string>; model?: string };
  added: string[];
  dropped: string[];
}

export function importExtras(
  source: Record<string, unknown>,
  existing: Record<string, unknown>,
): ImportedExtras {
  const out: ImportedExtras = { set: {}, added: [], dropped: [] };
  carryEnv(source.env, existing.env, out);
  carryModel(source.model, existing.model, out);
  for (const key of Object.keys(source)) {
    if (!HANDLED.has(key))
      out.dropped.push(`${key}: a Claude Code setting acai has no equivalent for`);
  }
  return out;
}

function carryEnv(env: unknown, existing: unknown, out: ImportedExtras): void {
  if (env === undefined) return;
  if (typeof env !== "object" || env === null || Array.isArray(env)) {
    out.dropped.push("env: not an object of variables");
    return;
  }
  const mine = (typeof existing === "object" && existing !== null ? existing : {}) as Record<
    string,
    string
  >;
  const merged = { ...mine };
  for (const [name, value] of Object.entries(env)) {
    if (typeof value !== "string" || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      out.dropped.push(`env.${name}: not a variable name with a string value`);
    } else if (name in mine) {
      if (mine[name] !== value)
        out.dropped.push(`env.${name}: the target already sets it (kept as it is)`);
    } else {
      merged[name] = value;
      out.added.push(`env.${name}`);
    }
  }
  if (Object.keys(merged).length > Object.keys(mine).length) out.set.env = merged;
}

function carryModel(model: unknown, existing: unknown, out: ImportedExtras): void {
  if (model === undefined) return;
  const spec = typeof model === "string" ? claudeModelSpec(model) : undefined;
  if (spec === undefined) {
    out.dropped.push(`model: ${JSON.stringify(model)} has no acai equivalent`);
  } else if (existing !== undefined) {
    if (existing !== spec)
      out.dropped.push(`model: the target already sets ${JSON.stringify(existing)} (kept)`);
  } else {
    out.set.model = spec;
    out.added.push(`model: ${spec}`);
  }
}
