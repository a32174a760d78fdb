import { describe, expect, it } from "vitest";
import { TOOL_ALIASES } from "../../../source/hooks/contract/aliases.js";
import type { HookDefinition, HookMatcher } from "../../../source/hooks/contract/definition.js";
import { compareHooks, indexHooksByEvent } from "../../../source/hooks/contract/hook-order.js";
import {
  claudeMatcherToRegex,
  hookMatches,
  InvalidMatcherError,
  type MatchSubject,
  mayMatchByName,
  prepareHookMatcher,
} from "../../../source/hooks/contract/match.js";
import {
  createCandidateFinder,
  indexHooks,
  matchedByKey,
  matchSubject,
} from "../../../source/hooks/run/plan.js";

let counter = 0;
function hook(matcher: HookMatcher, overrides: Partial<HookDefinition> = {}): HookDefinition {
  counter++;
  return {
    id: `user:executable:/h${counter}`,
    name: `h${counter}`,
    events: ["before_tool", "after_tool", "session_start", "notification", "user_prompt"],
    matcher,
    priority: 100,
    timeoutMs: 30_000,
    async: false,
    failure: "open",
    env: [],
    scope: "user",
    sourceKind: "executable",
    file: `/h${counter}`,
    dialect: "acai",
    launch: { command: `/h${counter}`, args: [], viaShell: false },
    ...overrides,
  };
}

const bash = (command: string) => ({
  event: "before_tool" as const,
  toolName: "Bash",
  toolInput: { command },
});
const tool = (toolName: string, toolInput: unknown = {}) => ({
  event: "before_tool" as const,
  toolName,
  toolInput,
});

describe("hookMatches", () => {
  it("session_id (A3S) matches exactly the running session, on every event", () => {
    const h = hook({ session_id: "session-123", tool: "Bash" });
    expect(hookMatches(h, { ...bash("ls"), sessionId: "session-123" })).toBe(true);
    expect(hookMatches(h, { ...bash("ls"), sessionId: "session-1234" })).toBe(false);
    expect(hookMatches(h, bash("ls"))).toBe(false);
    expect(mayMatchByName(h, { ...bash("ls"), sessionId: "other" })).toBe(false);
    const prompt = { event: "user_prompt" as const, sessionId: "session-123" };
    expect(hookMatches(h, prompt)).toBe(true);
    expect(hookMatches(h, { ...prompt, sessionId: "x" })).toBe(false);
  });

  it("requires the event to be listed", () => {
    const h = hook({}, { events: ["after_tool"] });
    expect(hookMatches(h, tool("Bash"))).toBe(false);
    expect(hookMatches(h, { ...tool("Bash"), event: "after_tool" })).toBe(true);
  });

  it("matches the whole tool name", () => {
    const edit = hook({ tool: "Edit" });
    expect(hookMatches(edit, tool("Edit"))).toBe(true);
    expect(hookMatches(edit, tool("MultiEdit"))).toBe(false);
    expect(hookMatches(edit, tool("Edits"))).toBe(false);
    const either = hook({ tool: "Edit|Write" });
    expect(hookMatches(either, tool("Write"))).toBe(true);
    expect(hookMatches(either, tool("WriteAll"))).toBe(false);
    expect(hookMatches(hook({ tool: "mcp__.*" }), tool("mcp__github__issue"))).toBe(true);
    expect(hookMatches(hook({ tool: "mcp__.*" }), tool("xmcp__github"))).toBe(false);
  });

  it("lets other agents' names of built-ins match the built-in", () => {
    expect(hookMatches(hook({ tool: "Shell" }), tool("Bash"))).toBe(true);
    expect(hookMatches(hook({ tool: "run_shell_command" }), tool("Bash"))).toBe(true);
    expect(hookMatches(hook({ tool: "WriteFile|ReadFile" }), tool("Read"))).toBe(true);
    expect(hookMatches(hook({ tool: "WriteFile" }), tool("Read"))).toBe(false);
    expect(hookMatches(hook({ tool: "replace" }), tool("Edit"))).toBe(true);
    expect(hookMatches(hook({ tool: "search_file_content" }), tool("Grep"))).toBe(true);
    expect(hookMatches(hook({ tool: "glob" }), tool("Glob"))).toBe(true);
    // Aliases only resolve to built-ins: a dynamic tool named "shell" is not Bash.
    expect(hookMatches(hook({ tool: "Bash" }), tool("shell"))).toBe(false);
    for (const [builtin, aliases] of Object.entries(TOOL_ALIASES)) {
      for (const alias of aliases)
        expect(hookMatches(hook({ tool: alias }), tool(builtin))).toBe(true);
    }
  });

  it("searches pattern in each string value of the input, so $ anchors at a value's end", () => {
    // The Agent Hooks spec's own example (hooks.md §6).
    const h = hook({ tool: "Write", pattern: "\\.(py|js|ts)$" });
    expect(hookMatches(h, tool("Write", { file_path: "src/app.py", content: "x" }))).toBe(true);
    expect(hookMatches(h, tool("Write", { file_path: "README.md", content: "x" }))).toBe(false);
    const nested = hook({ pattern: "^secret$" });
    expect(hookMatches(nested, tool("Edit", { edits: [{ old_string: "secret" }] }))).toBe(true);
    expect(hookMatches(nested, tool("Edit", { edits: [{ old_string: "a secret" }] }))).toBe(false);
  });

  it("searches pattern in the tool input as JSON", () => {
    const h = hook({ pattern: '\\.env"' });
    expect(hookMatches(h, tool("Read", { file_path: "/p/.env" }))).toBe(true);
    expect(hookMatches(h, tool("Read", { file_path: "/p/.envrc" }))).toBe(false);
    expect(hookMatches(hook({ pattern: "rm -rf" }), bash("sudo rm -rf /"))).toBe(true);
  });

  it("searches command in Bash commands only", () => {
    const h = hook({ command: "rm\\s+-rf" });
    expect(hookMatches(h, bash("rm  -rf build"))).toBe(true);
    expect(hookMatches(h, bash("ls"))).toBe(false);
    expect(
      hookMatches(h, tool("Write", { file_path: "x", content: "rm -rf", command: "rm -rf" })),
    ).toBe(false);
    expect(hookMatches(h, tool("Bash", {}))).toBe(false);
  });

  it("matches path globs against the file path relative to the project", () => {
    const h = hook({ path: "src/**/*.ts" });
    prepareHookMatcher(h, "/work/proj");
    expect(hookMatches(h, tool("Write", { file_path: "/work/proj/src/a/b.ts" }))).toBe(true);
    expect(hookMatches(h, tool("Write", { file_path: "src/b.ts" }))).toBe(true);
    expect(hookMatches(h, tool("Write", { file_path: "./src/b.ts" }))).toBe(true);
    expect(hookMatches(h, tool("Write", { file_path: "/work/proj/lib/b.ts" }))).toBe(false);
    expect(hookMatches(h, tool("Write", { file_path: "/elsewhere/src/b.ts" }))).toBe(false);
    expect(hookMatches(h, tool("Glob", { pattern: "*", path: "/work/proj/src/x.ts" }))).toBe(true);
    expect(hookMatches(h, tool("Bash", { command: "ls" }))).toBe(false);
    // The subject's project dir wins over the one given at load.
    expect(
      hookMatches(h, { ...tool("Write", { file_path: "/other/src/b.ts" }), projectDir: "/other" }),
    ).toBe(true);
    // A glob without a slash matches the file name anywhere; dot files are included.
    const base = hook({ path: "*.md" });
    prepareHookMatcher(base, "/p");
    expect(hookMatches(base, tool("Write", { file_path: "/p/docs/deep/README.md" }))).toBe(true);
    expect(hookMatches(hook({ path: "**/.env" }), tool("Read", { file_path: "conf/.env" }))).toBe(
      true,
    );
    // An absolute glob matches the absolute path.
    expect(hookMatches(hook({ path: "/etc/**" }), tool("Read", { file_path: "/etc/passwd" }))).toBe(
      true,
    );
  });

  it("requires every given matcher to match", () => {
    const h = hook({ tool: "Bash", command: "git", pattern: "push" });
    expect(hookMatches(h, bash("git push"))).toBe(true);
    expect(hookMatches(h, bash("git pull"))).toBe(false);
    expect(hookMatches(h, tool("Write", { content: "git push" }))).toBe(false);
  });

  it("a source matcher may name Claude Code's word for the source (SessionEnd prompt_input_exit)", () => {
    const h = hook({ source: "prompt_input_exit" }, { events: ["session_end"] });
    const end = (source: string, alias: string) =>
      hookMatches(h, { event: "session_end", source, sourceAliases: [alias] });
    expect(end("user_exit", "prompt_input_exit")).toBe(true);
    expect(end("completed", "other")).toBe(false);
    expect(
      hookMatches(hook({ source: "user_exit" }, { events: ["session_end"] }), {
        event: "session_end",
        source: "user_exit",
        sourceAliases: ["prompt_input_exit"],
      }),
    ).toBe(true);
    const gemini = hook({ source: "exit" }, { events: ["session_end"] });
    const aliases = ["other", "exit"];
    expect(
      hookMatches(gemini, { event: "session_end", source: "completed", sourceAliases: aliases }),
    ).toBe(true);
    expect(
      hookMatches(gemini, {
        event: "session_end",
        source: "error",
        sourceAliases: ["other", "other"],
      }),
    ).toBe(false);
  });

  it("Gemini CLI's Notification matcher ToolPermission matches acai's permission_prompt, only that", () => {
    // As a settings file's `"matcher": "ToolPermission"` under Notification becomes (settings.ts).
    const source = claudeMatcherToRegex("ToolPermission");
    expect(source).toBeDefined();
    const gemini = hook({ source }, { events: ["notification"] });
    const note = (notificationType: string) =>
      matchSubject("notification", { type: "notification", message: "m", notificationType });
    expect(hookMatches(gemini, note("permission_prompt"))).toBe(true);
    expect(hookMatches(gemini, note("idle_prompt"))).toBe(false);
    // acai's own word still matches, and Gemini's word does not widen it.
    const own = hook({ source: "permission_prompt" }, { events: ["notification"] });
    expect(hookMatches(own, note("permission_prompt"))).toBe(true);
    expect(hookMatches(own, note("idle_prompt"))).toBe(false);
  });

  it("applies source to session_start and notification, and ignores tool matchers elsewhere", () => {
    const h = hook({ source: "startup|resume", tool: "Bash" });
    expect(hookMatches(h, { event: "session_start", source: "resume" })).toBe(true);
    expect(hookMatches(h, { event: "session_start", source: "resumed" })).toBe(false);
    expect(hookMatches(h, { event: "notification", source: "idle" })).toBe(false);
    expect(hookMatches(h, { event: "user_prompt" })).toBe(true);
    expect(hookMatches(h, bash("ls"))).toBe(true);
    expect(hookMatches(h, tool("Read"))).toBe(false);
  });

  it("rejects invalid regular expressions and empty globs when prepared", () => {
    expect(() => prepareHookMatcher(hook({ tool: "(Bash" }))).toThrow(InvalidMatcherError);
    expect(() => prepareHookMatcher(hook({ tool: "a)|(b" }))).toThrow(/matcher\.tool/);
    expect(() => prepareHookMatcher(hook({ command: "[" }))).toThrow(/matcher\.command/);
    expect(() => prepareHookMatcher(hook({ path: " " }))).toThrow(/matcher\.path/);
  });

  it("gives the same answer on repeated calls (memoized results stay correct)", () => {
    const h = hook({ tool: "Write" });
    for (let i = 0; i < 3; i++) {
      expect(hookMatches(h, tool("Write"))).toBe(true);
      expect(hookMatches(h, tool("Read"))).toBe(false);
    }
    for (let i = 0; i < 600; i++) hookMatches(h, tool(`dyn${i}`));
    expect(hookMatches(h, tool("Write"))).toBe(true);
  });
});

describe("claudeMatcherToRegex", () => {
  it("turns Claude Code matcher strings into whole-name expressions", () => {
    expect(claudeMatcherToRegex(undefined)).toBeUndefined();
    expect(claudeMatcherToRegex("")).toBeUndefined();
    expect(claudeMatcherToRegex(" * ")).toBeUndefined();
    expect(claudeMatcherToRegex("Edit|Write")).toBe("Edit|Write");
    expect(claudeMatcherToRegex("Notebook.*")).toBe("[\\s\\S]*(?:Notebook.*)[\\s\\S]*");
  });
});

describe("indexHooksByEvent", () => {
  it("lists hooks per event in run order: priority, user before project, configured order", () => {
    const low = hook({}, { name: "a", priority: 10, events: ["before_tool"], order: 0 });
    const project = hook(
      {},
      {
        name: "a",
        priority: 500,
        scope: "project",
        events: ["before_tool", "after_tool"],
        order: 1,
      },
    );
    const first = hook({}, { name: "z", priority: 500, events: ["before_tool"], order: 2 });
    const second = hook({}, { name: "b", priority: 500, events: ["before_tool"], order: 3 });
    const index = indexHooksByEvent([low, project, second, first]);
    expect(index.get("before_tool")).toEqual([first, second, project, low]);
    expect(index.get("after_tool")).toEqual([project]);
    expect(index.has("session_end")).toBe(false);
    expect([second, first].sort(compareHooks)).toEqual([first, second]);
  });

  it("never orders by name: equal priority, scope and order fall back to the id", () => {
    const z = hook({}, { name: "z", id: "user:settings:/s#1" });
    const a = hook({}, { name: "a", id: "user:settings:/s#2" });
    expect([a, z].sort(compareHooks)).toEqual([z, a]);
    const numbered = hook({}, { name: "y", order: 5 });
    expect([z, numbered].sort(compareHooks)).toEqual([numbered, z]);
  });
});

describe("createCandidateFinder (the interceptor's one match cache)", () => {
  it("candidates then hookMatches select exactly what indexHooksByEvent + hookMatches select, in order", () => {
    const hooks = [
      hook({ tool: "Bash", command: "rm" }, { priority: 900 }),
      hook({ tool: "Write|Edit" }, { priority: 50 }),
      hook({ tool: "Shell" }),
      hook({ pattern: "secret" }),
      hook({ path: "src/**" }, { scope: "project" }),
      hook({}),
      hook({ source: "resume" }),
      hook({ tool: "Read" }, { events: ["after_tool"] }),
    ];
    const byEvent = indexHooksByEvent(hooks);
    let calls = 0;
    const counted = (h: HookDefinition, subject: MatchSubject) => {
      calls++;
      return mayMatchByName(h, subject);
    };
    const candidates = createCandidateFinder(indexHooks(hooks), counted);
    const subjects: MatchSubject[] = [
      bash("rm -rf x"),
      bash("ls secret"),
      tool("Write", { file_path: "src/a.ts", content: "secret" }),
      tool("Edit", { file_path: "lib/a.ts" }),
      tool("Read", { file_path: "src/x" }),
      { ...tool("Read", { file_path: "src/x" }), event: "after_tool" },
      { event: "session_start", source: "resume" },
      { event: "session_start", source: "startup" },
      { event: "user_prompt" },
      { event: "session_end" },
    ];
    const select = (subject: MatchSubject) =>
      candidates(subject).filter((h) => matchedByKey(h) || hookMatches(h, subject));
    for (const subject of subjects) {
      const expected = (byEvent.get(subject.event) ?? []).filter((h) => hookMatches(h, subject));
      expect(select(subject)).toEqual(expected);
    }
    // Second round: name-level decisions come from the cache, no matcher is called again.
    calls = 0;
    for (const subject of subjects) select(subject);
    expect(calls).toBe(0);
    // A tool no hook names: hooks naming other tools (and `command`, which needs Bash) are out.
    expect(candidates(tool("Glob", { pattern: "*" }))).toEqual(
      [hooks[3]!, hooks[4]!, hooks[5]!, hooks[6]!].sort(compareHooks),
    );
    // Of those, only the ones that look at the input are left to decide per event.
    expect(hooks.filter(matchedByKey)).toEqual([hooks[1], hooks[2], hooks[5], hooks[6], hooks[7]]);
    // source is ignored on tool events, so hooks[6] matches too.
    const rest = [hooks[2], hooks[5], hooks[6]] as HookDefinition[];
    expect(select(bash("rm -rf x"))).toEqual([hooks[0], ...rest.sort(compareHooks)]);
  });
});

describe("`if` without the session's judgement (an embedder's interceptor)", () => {
  it("takes a rule with content as catching every call it names: the hook runs (fail closed)", () => {
    const guard = hook({ if: "Bash(git push:*)" });
    prepareHookMatcher(guard);
    // No ruleCatches: the hook cannot be skipped by a line nobody judged.
    expect(hookMatches(guard, bash("ls -la"))).toBe(true);
    expect(hookMatches(guard, bash("cd x && git push"))).toBe(true);
    // With the session's judgement, the rule decides.
    const judged = (command: string, catches: boolean) => ({
      ...bash(command),
      ruleCatches: () => catches,
    });
    expect(hookMatches(guard, judged("ls -la", false))).toBe(false);
    expect(hookMatches(guard, judged("git push", true))).toBe(true);
    // A tool the rule does not name is told by names alone, judged or not.
    const read = { event: "before_tool" as const, toolName: "Read", toolInput: { file_path: "x" } };
    expect(hookMatches(guard, read)).toBe(false);
  });
});
