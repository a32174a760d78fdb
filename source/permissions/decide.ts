/**
 * Whether a tool call may run: allow, deny or ask, and what decided it —
 * pure, in Claude Code's order:
 *
 * 1. a deny rule that matches denies (from any settings file or flag: a
 *    project's allow never beats the user's deny);
 * 2. plan mode denies every tool but the read-only ones;
 * 2a. a write to a protected path (protected.ts: ACAI_HOME, the project's
 *    trusted set, git's config and hooks) asks, as kind `protected`: only the
 *    user in the REPL may approve it — no rule, mode, hook or `--yes`;
 * 3. an ask rule that matches asks; so does a before_tool hook that answered ask;
 * 4. bypassPermissions allows;
 * 5. a before_tool hook that answered allow (Claude Code's
 *    `permissionDecision: "allow"`) allows, and so does an allow rule;
 * 6. else the mode says: read-only tools and the user's own (dynamic) tools
 *    run; acceptEdits also allows Write and Edit inside the project; Bash,
 *    Write, Edit and MCP tools ask.
 *
 * A Bash line is judged from its parse (`policy.shell`, shell/analyze.ts):
 * its redirections' files are writes, caught by Edit/Write deny and ask
 * rules and allowed only as a Write of them would be (an Edit allow rule, or
 * acceptEdits inside the project); a line the analysis cannot fully judge is
 * never allowed by a rule — it asks, saying why (`by.kind` "command").
 */
import path from "node:path";
import { allowingRule, catchesCommand, suggestBashRule } from "./bash.js";
import { bashRuleCannotCatch } from "./bash-prefilter.js";
import {
  isInside,
  literalFileOf,
  type PathContext,
  pathMatches,
  suggestPathRule,
} from "./paths.js";
import {
  type ProtectedHit,
  type ProtectedPaths,
  pathsInInput,
  protectedWrite,
} from "./protected.js";
import {
  type PermissionMode,
  type PermissionRule,
  type PermissionRules,
  ruleNamesTool,
} from "./rules.js";
import type { CommandAnalysis, ShellAnalyzer } from "./shell/analyze.js";

/** How a tool touches the world, for the mode table. */
export type ToolKind = "read" | "edit" | "bash" | "mcp" | "other";

const READ_ONLY_TOOLS = ["Read", "Glob", "Grep"] as const;

export function toolKind(toolName: string): ToolKind {
  if ((READ_ONLY_TOOLS as readonly string[]).includes(toolName)) return "read";
  if (toolName === "Write" || toolName === "Edit") return "edit";
  if (toolName === "Bash") return "bash";
  if (toolName.startsWith("mcp__")) return "mcp";
  return "other";
}

/** A before_tool hook's say on the permission (the interceptor folds the chain into one). */
export interface PermissionHint {
  behavior: "ask" | "allow";
  reason: string;
  /** The hook's name. */
  by: string;
}

export interface PermissionPolicy {
  mode: PermissionMode;
  rules: PermissionRules;
  /** The project root (relative path rules, acceptEdits' reach) and the home folder. */
  paths: PathContext;
  /** The agent's working directory: relative tool paths are taken from it. */
  cwd: string;
  /**
   * Where a file path lands as the file system resolves it (every link
   * followed, also a dangling one or one to a folder not created yet:
   * `tools/landing.ts`); undefined when that cannot be told. Rules must hold
   * for both the path as given and its landing, which is taken from the
   * project's real root; acceptEdits' "inside the project" is judged on it.
   */
  realpath?: (file: string) => string | undefined;
  /**
   * Whether two paths are the same file on disk (device and inode): a path
   * rule naming one file also catches a hard link to it. Without it, only
   * names are compared.
   */
  sameFile?: (a: string, b: string) => boolean;
  /** What the session's tools may not write without the user's own yes (protected.ts). */
  guard?: ProtectedPaths;
  /** Parses Bash lines (loaded once per session: `loadShellAnalyzer`). */
  shell: ShellAnalyzer;
  /**
   * Bash runs in the OS sandbox and the user's `sandbox.autoAllowBashIfSandboxed`
   * is on: in `default` mode a Bash call no rule decides runs without asking.
   */
  autoAllowSandboxedBash?: boolean;
}

export interface ToolCall {
  toolName: string;
  input: unknown;
}

export type DecidedBy =
  | { kind: "rule"; rule: PermissionRule }
  | { kind: "mode"; mode: PermissionMode }
  | { kind: "hook"; name: string; reason: string }
  | { kind: "protected"; hit: ProtectedHit }
  /** A Bash line no rule could allow: what the analysis could not judge, or a write no rule allows. */
  | { kind: "command"; reason: string }
  /** A Bash deny or ask rule that could not be checked against a line the parse does not fully understand. */
  | { kind: "unchecked"; rule: PermissionRule; reason: string };

export type PermissionDecision =
  | { behavior: "allow"; by: DecidedBy }
  | { behavior: "deny"; by: DecidedBy }
  | { behavior: "ask"; by: DecidedBy };

export function decide(
  call: ToolCall,
  policy: PermissionPolicy,
  hint?: PermissionHint,
): PermissionDecision {
  const kind = toolKind(call.toolName);
  const target = targetOf(call, policy);
  const deny = firstMatch(policy.rules.deny, call.toolName, target);
  if (deny) return { behavior: "deny", by: { kind: "rule", rule: deny } };
  const uncheckedDeny = uncheckable(policy.rules.deny, target);
  if (uncheckedDeny) return { behavior: "deny", by: uncheckedDeny };
  const mode = policy.mode;
  if (mode === "plan" && kind !== "read") return { behavior: "deny", by: { kind: "mode", mode } };
  const hit = policy.guard && protectedWrite(writtenFiles(call, policy), policy.guard);
  if (hit) return { behavior: "ask", by: { kind: "protected", hit } };
  const ask = firstMatch(policy.rules.ask, call.toolName, target);
  if (ask) return { behavior: "ask", by: { kind: "rule", rule: ask } };
  const uncheckedAsk = uncheckable(policy.rules.ask, target);
  if (uncheckedAsk) return { behavior: "ask", by: uncheckedAsk };
  if (hint?.behavior === "ask") {
    return { behavior: "ask", by: { kind: "hook", name: hint.by, reason: hint.reason } };
  }
  if (mode === "bypassPermissions") return { behavior: "allow", by: { kind: "mode", mode } };
  if (hint?.behavior === "allow") {
    return { behavior: "allow", by: { kind: "hook", name: hint.by, reason: hint.reason } };
  }
  const allow = allowedBy(policy, call.toolName, target);
  if (allow) return { behavior: "allow", by: { kind: "rule", rule: allow } };
  const unjudged = target.kind === "command" ? whyNotAllowed(policy, target) : undefined;
  if (unjudged !== undefined) return { behavior: "ask", by: { kind: "command", reason: unjudged } };
  // sandbox.autoAllowBashIfSandboxed: the OS sandbox bounds what the command can do.
  if (kind === "bash" && mode === "default" && policy.autoAllowSandboxedBash === true) {
    return { behavior: "allow", by: { kind: "mode", mode } };
  }
  return { behavior: byMode(mode, kind, target), by: { kind: "mode", mode } };
}

function byMode(
  mode: Exclude<PermissionMode, "bypassPermissions">,
  kind: ToolKind,
  target: Target,
): "allow" | "ask" {
  if (kind === "read" || kind === "other") return "allow";
  if (mode === "acceptEdits" && kind === "edit" && target.kind === "path") {
    return writeAllowedByMode(target.files) ? "allow" : "ask";
  }
  return "ask";
}

const BUILTIN_NOT_WRITING = new Set(["Read", "Glob", "Grep", "Task"]);

/**
 * The files a call may write, absolute — what the protected-path check judges:
 * Write's and Edit's `file_path`; Bash's redirection targets (from the parse:
 * as given and where they land); for a dynamic or MCP tool, whose effects
 * acai cannot know, every path its input names. What a command writes by
 * itself (`sed -i`) is for the sandbox and the hook fingerprints
 * (hooks/discover/fingerprint.ts).
 */
function writtenFiles(call: ToolCall, policy: PermissionPolicy): string[] {
  if (BUILTIN_NOT_WRITING.has(call.toolName)) return [];
  const target = targetOf(call, policy);
  if (target.kind === "path") return target.files.map((f) => f.file);
  if (target.kind === "command") return target.writes.flatMap((files) => files.map((f) => f.file));
  return pathsInInput(call.input, policy.cwd, policy.paths.homeDir);
}

/**
 * The mode's judgement of a write to these paths (the path as given and
 * where it lands): acceptEdits allows it only when every one is inside the
 * project. The one place that says what a write may reach without a rule.
 */
function writeAllowedByMode(files: readonly JudgedFile[]): boolean {
  return files.every((f) => isInside(f.paths.projectDir, f.file));
}

/**
 * Where a Write, Edit or Read call's file lands (links resolved,
 * `PermissionPolicy.realpath`), which the decision judged; the tool works on
 * that file or refuses. Undefined for other tools, or when it cannot be told.
 */
export function judgedLanding(call: ToolCall, policy: PermissionPolicy): string | undefined {
  if (toolKind(call.toolName) !== "edit" && call.toolName !== "Read") return undefined;
  const target = targetOf(call, policy);
  if (target.kind !== "path") return undefined;
  return target.files.at(-1)?.file;
}

/** A path a rule is tested on, with the root relative patterns are taken from. */
interface JudgedFile {
  file: string;
  paths: PathContext;
}

/** What rule contents are tested against. */
type Target =
  | { kind: "command"; line: string; analysis: CommandAnalysis; writes: JudgedFile[][] }
  | { kind: "path"; files: JudgedFile[]; sameFile?: (a: string, b: string) => boolean }
  | { kind: "none" };

/** The tools whose rule content is a path, and the input field holding it. */
const PATH_FIELDS: Readonly<Record<string, string>> = {
  Read: "file_path",
  Write: "file_path",
  Edit: "file_path",
  Glob: "path",
  Grep: "path",
};

function targetOf(call: ToolCall, policy: PermissionPolicy): Target {
  const input = (call.input ?? {}) as Record<string, unknown>;
  if (call.toolName === "Bash") {
    const line = typeof input.command === "string" ? input.command : "";
    const analysis = policy.shell.analyze(line);
    const writes = analysis.writes.map((w) => variantsOf(resolveWritten(w, policy), policy));
    return { kind: "command", line, analysis, writes };
  }
  const field = PATH_FIELDS[call.toolName];
  if (field === undefined) return { kind: "none" };
  const given = typeof input[field] === "string" ? (input[field] as string) : ".";
  const files = variantsOf(path.resolve(policy.cwd, given), policy);
  return { kind: "path", files, ...(policy.sameFile ? { sameFile: policy.sameFile } : {}) };
}

function variantsOf(file: string, policy: PermissionPolicy): JudgedFile[] {
  const files = [{ file, paths: policy.paths }];
  const real = policy.realpath?.(file);
  if (real !== undefined && real !== file) {
    const realOf = (dir: string) => policy.realpath?.(dir) ?? dir;
    const paths = {
      projectDir: realOf(policy.paths.projectDir),
      homeDir: realOf(policy.paths.homeDir),
    };
    files.push({ file: real, paths });
  }
  return files;
}

/** A redirection's file as the shell opens it: `~` is the home folder, relative from the cwd. */
function resolveWritten(written: string, policy: PermissionPolicy): string {
  if (written === "~" || written.startsWith("~/")) {
    return path.join(policy.paths.homeDir, written.slice(1));
  }
  return path.resolve(policy.cwd, written);
}

/**
 * Whether `rule` would catch the call as a deny rule does: any command of a
 * Bash line in any form, a redirection's file for an Edit rule, the path as
 * given and where it lands — or cannot be checked against it (an opaque Bash
 * line), which counts as caught. A hook's `if` (hooks.md §4) is this test:
 * a guard meant for `git push` is not skipped by `cd x && git push`.
 */
export function ruleCatches(
  rule: PermissionRule,
  call: ToolCall,
  policy: PermissionPolicy,
): boolean {
  if (!ruleMayConcern(rule, call.toolName)) return false;
  if (cannotCatchUnparsed(rule, call)) return false;
  const target = targetOf(call, policy);
  return (
    firstMatch([rule], call.toolName, target) !== undefined ||
    uncheckable([rule], target) !== undefined
  );
}

/**
 * A `Bash(…)` rule (its tool exactly `Bash`: a wildcard tool would judge the
 * line's writes too) that certainly does not catch the line, told without
 * parsing it (bash-prefilter.ts: only ever "no" where the parse says no).
 */
function cannotCatchUnparsed(rule: PermissionRule, call: ToolCall): boolean {
  if (rule.tool !== "Bash" || rule.content === undefined || call.toolName !== "Bash") return false;
  const command = (call.input as { command?: unknown } | null | undefined)?.command;
  return typeof command === "string" && bashRuleCannotCatch(rule.content, command);
}

/** Whether a rule may concern a tool at all, by names only (a cheap test before `ruleCatches`). */
export function ruleMayConcern(
  rule: Pick<PermissionRule, "tool" | "content">,
  toolName: string,
): boolean {
  if (ruleCovers(rule, toolName)) return true;
  // An Edit/Write rule also judges a Bash line's redirections.
  return toolName === "Bash" && rule.content !== undefined && ruleCovers(rule, "Write");
}

/** Which tools a rule of a tool name covers: Edit rules cover Write too, Read rules the searches. */
function ruleCovers(rule: Pick<PermissionRule, "tool" | "content">, toolName: string): boolean {
  if (ruleNamesTool(rule.tool, toolName)) return true;
  if (rule.content === undefined) return false;
  if (rule.tool === "Edit") return toolName === "Write";
  if (rule.tool === "Read") return toolName === "Glob" || toolName === "Grep";
  return false;
}

/** The first deny / ask rule that catches the call (any command, any of its paths). */
function firstMatch(
  rules: readonly PermissionRule[],
  toolName: string,
  target: Target,
): PermissionRule | undefined {
  for (const rule of rules) {
    if (writeCaught(rule, target)) return rule;
    if (!ruleCovers(rule, toolName)) continue;
    if (rule.content === undefined) return rule;
    if (contentCatches(rule.content, target)) return rule;
  }
  return undefined;
}

/**
 * A deny or ask rule for Bash commands cannot be checked against a line the
 * analysis does not fully understand (`$(echo touch) x`): it holds, failing
 * closed. None when every such rule could be checked.
 */
function uncheckable(rules: readonly PermissionRule[], target: Target): DecidedBy | undefined {
  if (target.kind !== "command") return undefined;
  const [reason] = target.analysis.opaque;
  if (reason === undefined) return undefined;
  const rule = rules.find((r) => r.content !== undefined && ruleCovers(r, "Bash"));
  return rule === undefined ? undefined : { kind: "unchecked", rule, reason };
}

/** A Bash line's redirection caught by a Write/Edit rule, as the Write of that file would be. */
function writeCaught(rule: PermissionRule, target: Target): boolean {
  if (target.kind !== "command" || !ruleCovers(rule, "Write")) return false;
  if (rule.content === undefined) return target.writes.length > 0;
  const content = rule.content;
  return target.writes.some((files) => files.some((f) => pathMatches(content, f.file, f.paths)));
}

function contentCatches(content: string, target: Target): boolean {
  switch (target.kind) {
    case "command":
      return catchesCommand(content, target.line, target.analysis);
    case "path":
      return (
        target.files.some((f) => pathMatches(content, f.file, f.paths)) ||
        hardLinkCaught(content, target)
      );
    case "none":
      return false;
    default:
      return target satisfies never;
  }
}

/** A rule naming one file (`Read(./.env)`) also catches another name of that file (a hard link). */
function hardLinkCaught(content: string, target: Extract<Target, { kind: "path" }>): boolean {
  const { sameFile } = target;
  if (sameFile === undefined) return false;
  return target.files.some((f) => {
    const named = literalFileOf(content, f.paths);
    return named !== undefined && named !== f.file && sameFile(f.file, named);
  });
}

/** The allow rule that allows the call: every command of a line covered and its writes, every path. */
function allowedBy(
  policy: PermissionPolicy,
  toolName: string,
  target: Target,
): PermissionRule | undefined {
  const covering = policy.rules.allow.filter((rule) => ruleCovers(rule, toolName));
  const whole = covering.find((rule) => rule.content === undefined);
  if (whole) return whole;
  switch (target.kind) {
    case "command": {
      const rule = allowingRule(target.analysis, covering);
      if (rule === undefined) return undefined;
      return target.writes.every((files) => writeAllowed(policy, files)) ? rule : undefined;
    }
    case "path":
      return pathAllowedBy(covering, target.files);
    case "none":
      return undefined;
    default:
      return target satisfies never;
  }
}

/**
 * The deny or ask rule that keeps a search (Grep, Glob) or a read from one
 * file it visits: a `Read(...)` rule or one of the tool's own, tested on the
 * file as given and where it lands. An ask rule counts as a denial here: a
 * search cannot stop to ask about each file. Undefined: the file may be read.
 */
export function readBlockedBy(
  toolName: string,
  file: string,
  policy: PermissionPolicy,
): PermissionRule | undefined {
  const { deny, ask } = policy.rules;
  const relevant = (rule: PermissionRule) =>
    rule.content !== undefined && (ruleCovers(rule, toolName) || ruleCovers(rule, "Read"));
  // The common case, no path rule at all, costs nothing per file.
  if (!deny.some(relevant) && !ask.some(relevant)) return undefined;
  const target = targetOf({ toolName: "Read", input: { file_path: file } }, policy);
  const catches = (rule: PermissionRule) =>
    relevant(rule) && contentCatches(rule.content as string, target);
  return deny.find(catches) ?? ask.find(catches);
}

function pathAllowedBy(
  covering: readonly PermissionRule[],
  files: JudgedFile[],
): PermissionRule | undefined {
  return covering.find((rule) =>
    files.every((f) => pathMatches(rule.content as string, f.file, f.paths)),
  );
}

/** Whether a redirection's file may be written as a Write of it could: an Edit allow rule, or the mode. */
function writeAllowed(policy: PermissionPolicy, files: JudgedFile[]): boolean {
  const covering = policy.rules.allow.filter((rule) => ruleCovers(rule, "Write"));
  if (covering.some((rule) => rule.content === undefined)) return true;
  if (pathAllowedBy(covering, files) !== undefined) return true;
  return policy.mode === "acceptEdits" && writeAllowedByMode(files);
}

/** Why a Bash line that no rule allowed asks, when it is more than "no rule allows it". */
function whyNotAllowed(
  policy: PermissionPolicy,
  target: Extract<Target, { kind: "command" }>,
): string | undefined {
  const [opaque] = target.analysis.opaque;
  if (opaque !== undefined) return `acai cannot judge this command by its rules: ${opaque}`;
  const covering = policy.rules.allow.filter((rule) => ruleCovers(rule, "Bash"));
  if (allowingRule(target.analysis, covering) === undefined) return undefined;
  const blocked = target.writes.find((files) => !writeAllowed(policy, files));
  if (blocked === undefined) return undefined;
  return `it writes ${blocked[0]?.file ?? "a file"} by redirection, and no Edit rule or mode allows that write`;
}

/** A rule that would allow this call, for "how to allow it" messages. */
export function suggestRule(call: ToolCall, policy: PermissionPolicy): string {
  const target = targetOf(call, policy);
  if (target.kind === "command") return suggestForCommand(policy, target);
  if (target.kind === "path" && (call.toolName === "Write" || call.toolName === "Edit")) {
    return suggestPathRule("Edit", target.files[0]?.file ?? "", policy.paths);
  }
  return call.toolName;
}

/**
 * For a Bash line: only the whole tool allows what the parse cannot judge; a
 * line whose commands are allowed but whose redirection is not needs an Edit
 * rule for that file; else a rule for its first command.
 */
function suggestForCommand(
  policy: PermissionPolicy,
  target: Extract<Target, { kind: "command" }>,
): string {
  if (target.analysis.opaque.length > 0) return "Bash";
  const covering = policy.rules.allow.filter((rule) => ruleCovers(rule, "Bash"));
  const blocked = target.writes.find((files) => !writeAllowed(policy, files));
  if (blocked !== undefined && allowingRule(target.analysis, covering) !== undefined) {
    return suggestPathRule("Edit", blocked[0]?.file ?? "", policy.paths);
  }
  return suggestBashRule(target.line, target.analysis);
}
