/**
 * Which rules a "yes, and don't ask again" answer may keep (the REPL's
 * permission prompt): one rule naming what was asked about, never a rule for
 * every call of a tool that runs commands or writes files, nor one whose tool
 * name is a wildcard. Whatever is kept, `decide` still asks before a write to
 * a protected path (step 2a comes before every allow rule), so no kept rule
 * lets the model write its own guards. Pure.
 */
import { parseRuleText } from "./rules.js";

/** Tools a rule without parentheses would allow whole. */
const NEVER_WHOLE = new Set(["Bash", "Write", "Edit", "Read", "Task"]);

export type Keepable = { ok: true } | { ok: false; why: string };

export function keepableRule(text: string): Keepable {
  const parsed = parseRuleText(text);
  if (!parsed.ok) return { ok: false, why: parsed.error };
  if (parsed.tool.includes("*")) {
    return { ok: false, why: `${text} names tools by a wildcard; write it in settings yourself` };
  }
  if (parsed.content === undefined && NEVER_WHOLE.has(parsed.tool)) {
    return {
      ok: false,
      why: `${text} would allow every ${parsed.tool} call; write it in settings yourself if you mean it`,
    };
  }
  return { ok: true };
}
