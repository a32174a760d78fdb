import path from "node:path";
import picomatch from "picomatch";
import { ruleMayConcern } from "../../permissions/decide.js";
import { parseRuleText } from "../../permissions/rules.js";
import { toolNameSpellings } from "./aliases.js";
import type { HookDefinition, HookEventName, HookMatcher } from "./definition.js";
import { hasNamespace, hasSource, isToolEvent } from "./events/names.js";
import { field, matchesPath, matchesPattern, type PathTest } from "./match-input.js";

/** What a matcher is tested against. */
export interface MatchSubject {
  event: HookEventName;
  toolName?: string;
  toolInput?: unknown;
  /** session_start source or notification type. */
  source?: string;
  /** Other agents' words for the same source (session_end's `prompt_input_exit`, Gemini's `exit`). */
  sourceAliases?: readonly string[];
  /** The running session's id (for `session_id` matchers). */
  sessionId?: string;
  /** The pattern event's namespace. */
  namespace?: string;
  /**
   * Whether a permission rule (a hook's `if`) catches this tool call, with
   * the session's shell parse and paths (`ruleCatches`, permissions/decide.ts).
   * Absent: a rule with content is taken as matching (the hook runs: fail closed).
   */
  ruleCatches?: RuleCatches;
  /**
   * Base for `path` globs. Defaults to the project dir the registry loaded the
   * hook for; relative tool paths are taken as relative to it already.
   */
  projectDir?: string;
}

/** Whether a parsed permission rule catches a tool call (the session's judgement). */
export type RuleCatches = (rule: IfRule, toolName: string, toolInput: unknown) => boolean;

/** A hook's `if`, parsed: Claude Code's permission-rule syntax. */
interface IfRule {
  text: string;
  tool: string;
  content?: string;
}

/** A regular expression in a matcher that does not compile (or an `if` that is not a rule). */
export class InvalidMatcherError extends Error {
  constructor(
    readonly field: keyof HookMatcher,
    readonly source: string,
    detail: string,
  ) {
    super(
      field === "if"
        ? `"if" ${JSON.stringify(source)} is not a permission rule: ${detail} (write it as in permissions, e.g. "Bash(git push:*)" or "Edit(src/**)")`
        : `invalid regular expression in matcher.${field} ${JSON.stringify(source)}: ${detail}`,
    );
    this.name = "InvalidMatcherError";
  }
}

interface NameTest {
  re: RegExp;
  /** Results per name; tool names and kinds are a small, repeating set. */
  memo: Map<string, boolean>;
  aliases: boolean;
}

interface CompiledMatcher {
  tool?: NameTest;
  pattern?: RegExp;
  command?: RegExp;
  path?: PathTest;
  source?: NameTest;
  namespace?: NameTest;
  /** `if`: the rule, and per tool name whether it may concern the tool at all. */
  if?: { rule: IfRule; concerns: Map<string, boolean> };
  projectDir?: string;
  /** No tool-side matcher at all: tool events always match. */
  anyTool: boolean;
}

const MEMO_LIMIT = 512;
const compiledByHook = new WeakMap<HookDefinition, CompiledMatcher>();

function compileRegex(field: keyof HookMatcher, source: string, wholeName: boolean): RegExp {
  try {
    // Compile the author's text alone first so an unbalanced `)` is not hidden by our wrapper.
    const bare = new RegExp(source);
    return wholeName ? new RegExp(`^(?:${source})$`) : bare;
  } catch (error) {
    const detail =
      error instanceof Error
        ? error.message.replace(/^Invalid regular expression: /, "")
        : String(error);
    throw new InvalidMatcherError(field, source, detail);
  }
}

/** Compiles a matcher's regular expressions and glob; throws `InvalidMatcherError`. */
function compileMatcher(matcher: HookMatcher, projectDir?: string): CompiledMatcher {
  const compiled: CompiledMatcher = { anyTool: true };
  if (projectDir !== undefined) compiled.projectDir = projectDir;
  if (matcher.tool !== undefined) {
    compiled.tool = {
      re: compileRegex("tool", matcher.tool, true),
      memo: new Map(),
      aliases: true,
    };
  }
  if (matcher.pattern !== undefined)
    compiled.pattern = compileRegex("pattern", matcher.pattern, false);
  if (matcher.command !== undefined)
    compiled.command = compileRegex("command", matcher.command, false);
  if (matcher.source !== undefined) {
    compiled.source = {
      re: compileRegex("source", matcher.source, true),
      memo: new Map(),
      aliases: false,
    };
  }
  if (matcher.namespace !== undefined) {
    compiled.namespace = {
      re: compileRegex("namespace", matcher.namespace, true),
      memo: new Map(),
      aliases: false,
    };
  }
  if (matcher.path !== undefined) {
    const glob = matcher.path;
    if (glob.trim() === "") throw new InvalidMatcherError("path", glob, "empty glob");
    const test = picomatch(glob, { dot: true, basename: !glob.includes("/") });
    compiled.path = { glob, test, absolute: path.isAbsolute(glob) };
  }
  if (matcher.if !== undefined) compiled.if = { rule: parseIf(matcher.if), concerns: new Map() };
  compiled.anyTool =
    !compiled.tool && !compiled.pattern && !compiled.command && !compiled.path && !compiled.if;
  return compiled;
}

function parseIf(text: string): IfRule {
  const parsed = parseRuleText(text);
  if (!parsed.ok) throw new InvalidMatcherError("if", text, parsed.error);
  return {
    text: text.trim(),
    tool: parsed.tool,
    ...(parsed.content === undefined ? {} : { content: parsed.content }),
  };
}

/** Whether the `if` rule may concern this tool at all, by its name (memoized: names repeat). */
function ifConcerns(test: NonNullable<CompiledMatcher["if"]>, toolName: string): boolean {
  let known = test.concerns.get(toolName);
  if (known === undefined) {
    known = ruleMayConcern(test.rule, toolName);
    if (test.concerns.size >= MEMO_LIMIT) test.concerns.clear();
    test.concerns.set(toolName, known);
  }
  return known;
}

/** `if`: the tool named by the rule, and its content judged as a deny rule judges it. */
function ifHolds(test: NonNullable<CompiledMatcher["if"]>, subject: MatchSubject): boolean {
  const toolName = subject.toolName ?? "";
  if (!ifConcerns(test, toolName)) return false;
  if (test.rule.content === undefined) return true;
  return subject.ruleCatches?.(test.rule, toolName, subject.toolInput) ?? true;
}

/**
 * Compiles and caches a hook's matcher (the registry does this at load, so a
 * bad regular expression is reported once, naming the file). Throws
 * `InvalidMatcherError`.
 */
export function prepareHookMatcher(hook: HookDefinition, projectDir?: string): void {
  compiledByHook.set(hook, compileMatcher(hook.matcher, projectDir));
}

function compiledFor(hook: HookDefinition): CompiledMatcher {
  let compiled = compiledByHook.get(hook);
  if (compiled === undefined) {
    compiled = compileMatcher(hook.matcher);
    compiledByHook.set(hook, compiled);
  }
  return compiled;
}

function testName(test: NameTest, name: string): boolean {
  const known = test.memo.get(name);
  if (known !== undefined) return known;
  let result = false;
  for (const spelling of test.aliases ? toolNameSpellings(name) : [name]) {
    if (test.re.test(spelling)) {
      result = true;
      break;
    }
  }
  if (test.memo.size >= MEMO_LIMIT) test.memo.clear();
  test.memo.set(name, result);
  return result;
}

function matchesTool(compiled: CompiledMatcher, subject: MatchSubject, withIf = true): boolean {
  const toolName = subject.toolName ?? "";
  if (compiled.tool && !testName(compiled.tool, toolName)) return false;
  if (compiled.pattern && !matchesPattern(compiled.pattern, subject.toolInput)) return false;
  if (compiled.command) {
    const command = toolName === "Bash" ? field(subject.toolInput, "command") : undefined;
    if (command === undefined || !compiled.command.test(command)) return false;
  }
  if (compiled.path) {
    const filePath = field(subject.toolInput, "file_path") ?? field(subject.toolInput, "path");
    if (filePath === undefined) return false;
    if (!matchesPath(compiled.path, filePath, subject.projectDir ?? compiled.projectDir))
      return false;
  }
  return !withIf || compiled.if === undefined || ifHolds(compiled.if, subject);
}

/**
 * Why a hook of this event does not match it: its `if` alone (every other
 * matcher holds), or its matchers. For the audit log's "not run" reasons.
 */
export function missedBy(hook: HookDefinition, subject: MatchSubject): "if" | "matcher" {
  if (!isToolEvent(subject.event) || hook.matcher.if === undefined) return "matcher";
  if (!hook.events.includes(subject.event) || !sessionMatches(hook, subject)) return "matcher";
  return matchesTool(compiledFor(hook), subject, false) ? "if" : "matcher";
}

/**
 * True when the hook listens to the event and every matcher it gives matches.
 * Tool matchers (`tool`, `pattern`, `command`, `path`) apply to tool events
 * only, `source` to session_start/notification only and `namespace` to the
 * pattern event only; elsewhere they are
 * ignored, as in Claude Code and the Agent Hooks spec.
 */
export function hookMatches(hook: HookDefinition, subject: MatchSubject): boolean {
  if (!hook.events.includes(subject.event) || !sessionMatches(hook, subject)) return false;
  const compiled = compiledFor(hook);
  if (isToolEvent(subject.event)) {
    return compiled.anyTool || matchesTool(compiled, subject);
  }
  if (compiled.source && hasSource(subject.event)) return sourceMatches(compiled.source, subject);
  if (compiled.namespace && hasNamespace(subject.event)) {
    return testName(compiled.namespace, subject.namespace ?? "");
  }
  return true;
}

/** A `source` matcher tests the source, or another agent's word for it. */
function sourceMatches(test: NameTest, subject: MatchSubject): boolean {
  if (testName(test, subject.source ?? "")) return true;
  return (subject.sourceAliases ?? []).some((alias) => testName(test, alias));
}

/** `session_id` (A3S): on every event, the exact id of the running session; unknown, no match. */
function sessionMatches(hook: HookDefinition, subject: MatchSubject): boolean {
  const wanted = hook.matcher.session_id;
  return wanted === undefined || subject.sessionId === wanted;
}

/**
 * Whether the hook can match this subject whatever its tool input: the event,
 * the tool name (`command` also needs Bash) or the source. When the hook has
 * no `pattern`, `command` or `path` (`looksAtInput` false) this is the whole
 * answer, the same as `hookMatches`.
 */
export function mayMatchByName(hook: HookDefinition, subject: MatchSubject): boolean {
  if (!hook.events.includes(subject.event) || !sessionMatches(hook, subject)) return false;
  const compiled = compiledFor(hook);
  if (isToolEvent(subject.event)) {
    const toolName = subject.toolName ?? "";
    if (compiled.tool && !testName(compiled.tool, toolName)) return false;
    if (compiled.if && !ifConcerns(compiled.if, toolName)) return false;
    return !compiled.command || toolName === "Bash";
  }
  if (compiled.source && hasSource(subject.event)) return sourceMatches(compiled.source, subject);
  if (compiled.namespace && hasNamespace(subject.event)) {
    return testName(compiled.namespace, subject.namespace ?? "");
  }
  return true;
}

/** Whether the hook's matchers look at the tool input (`pattern`, `command`, `path`, `if`). */
export function looksAtInput(hook: HookDefinition): boolean {
  const m = hook.matcher;
  return (
    m.pattern !== undefined || m.command !== undefined || m.path !== undefined || m.if !== undefined
  );
}

/**
 * Claude Code matcher string → acai whole-name regular expression with the
 * same meaning: undefined (all) for empty or `*`; names and `A|B` stay exact
 * names; anything else is a regular expression searched anywhere in the name.
 */
export function claudeMatcherToRegex(matcher: string | undefined): string | undefined {
  if (matcher === undefined) return undefined;
  const trimmed = matcher.trim();
  if (trimmed === "" || trimmed === "*") return undefined;
  if (/^[A-Za-z0-9_|-]+$/.test(trimmed)) return trimmed;
  return `[\\s\\S]*(?:${trimmed})[\\s\\S]*`;
}
