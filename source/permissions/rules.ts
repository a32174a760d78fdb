/**
 * Permission rules in Claude Code's syntax (docs/permissions.md): `Tool` or
 * `Tool(content)` — `Bash(npm test:*)`, `Read(./.env)`, `Edit(src/**)`,
 * `mcp__github__*`. Parsing is pure; settings use `PermissionRuleSchema`, the
 * flags `parseRuleList`.
 */
import { z } from "zod";

export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions"] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** Which list a rule is in: deny beats ask beats allow. */
export type RuleList = "allow" | "deny" | "ask";

/** Where a rule comes from, for messages ("in the deny list of ~/.acai/settings.json"). */
export interface RuleSource {
  /** `session`: the user's "yes, and don't ask again this session" in the REPL (memory only). */
  scope: "user" | "project" | "flag" | "session";
  /** The settings file, or the flag (`--allowedTools`). */
  label: string;
}

export interface PermissionRule {
  /** As written, e.g. `Bash(npm test:*)`. */
  text: string;
  /** The tool name part; may hold `*` wildcards (`mcp__github__*`). */
  tool: string;
  /** What is inside the parentheses; absent: the whole tool. */
  content?: string;
  list: RuleList;
  source: RuleSource;
}

export interface PermissionRules {
  allow: readonly PermissionRule[];
  deny: readonly PermissionRule[];
  ask: readonly PermissionRule[];
}

export const NO_RULES: PermissionRules = Object.freeze({ allow: [], deny: [], ask: [] });

const TOOL_PART = /^[A-Za-z0-9_*-]+$/;
const MAX_RULE_CHARS = 1000;

/** A rule's text split into tool and content, or why it is not a rule. */
export function parseRuleText(
  text: string,
): { ok: true; tool: string; content?: string } | { ok: false; error: string } {
  const rule = text.trim();
  if (rule === "") return { ok: false, error: "a rule must not be empty" };
  if (rule.length > MAX_RULE_CHARS) {
    return { ok: false, error: `a rule is at most ${MAX_RULE_CHARS} characters` };
  }
  const open = rule.indexOf("(");
  if (open === -1) {
    if (!TOOL_PART.test(rule)) return { ok: false, error: badTool(rule) };
    return { ok: true, tool: rule };
  }
  const tool = rule.slice(0, open).trim();
  if (!rule.endsWith(")")) {
    return { ok: false, error: `"${rule}" opens "(" but does not end with ")"` };
  }
  if (!TOOL_PART.test(tool)) return { ok: false, error: badTool(tool) };
  const content = rule.slice(open + 1, -1).trim();
  if (content === "") {
    return { ok: false, error: `"${rule}" has empty parentheses: write ${tool} for every call` };
  }
  // `Bash(*)` is Claude Code's spelling of the whole tool.
  return content === "*" ? { ok: true, tool } : { ok: true, tool, content };
}

function badTool(tool: string): string {
  return `"${tool}" is not a tool name (letters, digits, _ and -, with * as a wildcard), e.g. Bash, Read, mcp__github__*`;
}

/** One rule in a settings file: a string that parses. */
export const PermissionRuleSchema = z.lazy(() =>
  z.string().superRefine((text, ctx) => {
    const parsed = parseRuleText(text);
    if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.error });
  }),
);

export const PermissionsSettingsSchema = z.lazy(() =>
  z.object({
    allow: z.array(PermissionRuleSchema).max(1000).optional(),
    deny: z.array(PermissionRuleSchema).max(1000).optional(),
    ask: z.array(PermissionRuleSchema).max(1000).optional(),
    defaultMode: z.enum(PERMISSION_MODES).optional(),
  }),
);

export type PermissionsSettings = z.infer<typeof PermissionsSettingsSchema>;

/** Rules of one list, from strings already checked (settings) or checked here (flags). */
export function toRules(
  texts: readonly string[],
  list: RuleList,
  source: RuleSource,
): { rules: PermissionRule[]; errors: string[] } {
  const rules: PermissionRule[] = [];
  const errors: string[] = [];
  for (const text of texts) {
    const parsed = parseRuleText(text);
    if (!parsed.ok) {
      errors.push(parsed.error);
      continue;
    }
    rules.push({
      text: text.trim(),
      tool: parsed.tool,
      ...(parsed.content === undefined ? {} : { content: parsed.content }),
      list,
      source,
    });
  }
  return { rules, errors };
}

/**
 * A flag's value as rules: Claude Code's `--allowedTools "Bash(npm test:*) Edit"`
 * takes rules separated by commas or spaces, a space inside parentheses
 * belonging to the rule.
 */
export function splitRuleList(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of value) {
    if (ch === "(") depth++;
    if (ch === ")" && depth > 0) depth--;
    if (depth === 0 && (ch === "," || /\s/.test(ch))) {
      if (current.trim() !== "") out.push(current.trim());
      current = "";
      continue;
    }
    current += ch;
  }
  if (current.trim() !== "") out.push(current.trim());
  return out;
}

/** Joins rule sets: each list keeps the order it was given in. */
export function joinRules(...sets: readonly PermissionRules[]): PermissionRules {
  return {
    allow: sets.flatMap((s) => s.allow),
    deny: sets.flatMap((s) => s.deny),
    ask: sets.flatMap((s) => s.ask),
  };
}

/** Whether a rule's tool part names this tool (`*` matches any run of characters). */
export function ruleNamesTool(ruleTool: string, toolName: string): boolean {
  if (!ruleTool.includes("*")) {
    // `mcp__github` is every tool of the server, as in Claude Code.
    return (
      ruleTool === toolName || (isMcpServerRule(ruleTool) && toolName.startsWith(`${ruleTool}__`))
    );
  }
  const pattern = ruleTool.split("*").map(escapeRegExp).join(".*");
  return new RegExp(`^${pattern}$`).test(toolName);
}

/** `mcp__server`: a server's name with no tool part. */
function isMcpServerRule(ruleTool: string): boolean {
  return /^mcp__(?:(?!__).)+$/.test(ruleTool);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
