/**
 * A hook's matcher and a sample event in words, for `acai hooks list` and
 * `acai hooks test`: the matcher as its author wrote it (a Claude Code
 * settings matcher such as `Edit|Write` or `mcp__.*`, not acai's internal
 * whole-name regular expression), and what of the sample a matcher looks at.
 */
import type { HookDefinition, HookMatcher } from "../../hooks/contract/definition.js";
import type { MatchSubject } from "../../hooks/contract/match.js";
import { inertText } from "../../terminal/inert-text.js";

/** The internal form `claudeMatcherToRegex` gives a Claude matcher that is a regular expression. */
const CLAUDE_SEARCH = /^\[\\s\\S\]\*\(\?:([\s\S]*)\)\[\\s\\S\]\*$/;

/** A settings hook's name-level matcher as written in the settings file; others' unchanged. */
export function writtenMatcher(hook: Pick<HookDefinition, "matcher" | "sourceKind">): HookMatcher {
  if (hook.sourceKind !== "settings") return hook.matcher;
  const unwrap = (regex: string | undefined): string | undefined =>
    regex === undefined ? undefined : (CLAUDE_SEARCH.exec(regex)?.[1] ?? regex);
  const written: HookMatcher = { ...hook.matcher };
  const tool = unwrap(hook.matcher.tool);
  const source = unwrap(hook.matcher.source);
  if (tool !== undefined) written.tool = tool;
  if (source !== undefined) written.source = source;
  return written;
}

/** `tool "Edit|Write", path "src/**"` (inert), or undefined for a hook without a matcher. */
export function matcherText(
  hook: Pick<HookDefinition, "matcher" | "sourceKind">,
): string | undefined {
  const parts = Object.entries(writtenMatcher(hook))
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([key, value]) => `${key} ${inertText(JSON.stringify(value))}`);
  return parts.length === 0 ? undefined : parts.join(", ");
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** What of the sample the matcher looked at: `tool Bash, input {"command":"npm test"}` (inert). */
export function subjectText(subject: MatchSubject, matcher: HookMatcher): string {
  const parts: string[] = [];
  if (subject.toolName !== undefined) parts.push(`tool ${inertText(subject.toolName)}`);
  const looksAtInput =
    matcher.pattern !== undefined || matcher.command !== undefined || matcher.path !== undefined;
  if (looksAtInput && subject.toolInput !== undefined)
    parts.push(`input ${inertText(clip(JSON.stringify(subject.toolInput) ?? "", 200))}`);
  if (subject.source !== undefined) parts.push(`source ${inertText(subject.source)}`);
  return parts.length === 0 ? "the sample" : parts.join(", ");
}
