/**
 * A3S's in-process API from `acai-agent/hooks` (source/sdk/a3s/): the
 * builders and `HookEngine` with A3S's names and A3S's execution flow, as a
 * program embedding acai uses them: register / unregister / fire /
 * all_hooks / get_hook / hook_count, matchers, priorities, the four actions.
 */
import { describe, expect, it } from "vitest";
import {
  Hook,
  HookEngine,
  HookEventType,
  HookMatcher,
  HookResponse,
} from "../../source/sdk/hooks.js";

const pre = (args: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  event_type: HookEventType.PreToolUse,
  payload: {
    session_id: "session-123",
    tool: "Bash",
    args,
    working_directory: "/w",
    recent_tools: [],
    ...extra,
  },
});

describe("A3S builders", () => {
  it("Hook.new(...).with_matcher(...).with_config(...) builds plain data, each step a new value", () => {
    const base = Hook.new("h", HookEventType.PreToolUse);
    const built = base
      .with_matcher(HookMatcher.tool("Bash").with_command("rm\\s+-rf"))
      .with_config({ priority: 1 })
      .with_config({ timeout_ms: 2000 });
    expect(JSON.parse(JSON.stringify(built))).toEqual({
      id: "h",
      event_type: "PreToolUse",
      matcher: { tool: "Bash", command_pattern: "rm\\s+-rf" },
      config: { priority: 1, timeout_ms: 2000 },
    });
    expect(base.matcher).toBeUndefined();
    expect(base.config).toEqual({});
  });

  it("HookMatcher's factories and HookResponse's answers have A3S's shapes", () => {
    expect({ ...HookMatcher.new() }).toEqual({});
    expect({ ...HookMatcher.path("src/**/*.ts").with_session("s") }).toEqual({
      path_pattern: "src/**/*.ts",
      session_id: "s",
    });
    expect({ ...HookMatcher.session("s") }).toEqual({ session_id: "s" });
    expect(HookResponse.continue_()).toEqual({ action: "Continue" });
    expect(HookResponse.continue_with({ a: 1 })).toEqual({
      action: "Continue",
      modified: { a: 1 },
    });
    expect(HookResponse.block("no")).toEqual({ action: "Block", reason: "no" });
    expect(HookResponse.retry(5000)).toEqual({ action: "Retry", retry_delay_ms: 5000 });
    expect(HookResponse.skip()).toEqual({ action: "Skip" });
  });
});

describe("HookEngine", () => {
  it("registers, finds, counts and unregisters hooks by id, in registration order", () => {
    const engine = HookEngine.new();
    engine.register(Hook.new("a", HookEventType.PreToolUse));
    engine.register({ id: "b", event_type: "post_tool_use", config: { priority: 5 } });
    expect(engine.hook_count()).toBe(2);
    expect(engine.all_hooks().map((h) => [h.id, h.event_type, h.config.priority])).toEqual([
      ["a", "PreToolUse", undefined],
      ["b", "PostToolUse", 5],
    ]);
    expect(engine.get_hook("b")?.event_type).toBe("PostToolUse");
    expect(engine.unregister("a")?.id).toBe("a");
    expect(engine.unregister("a")).toBeNull();
    expect(engine.get_hook("a")).toBeNull();
    expect(engine.hook_count()).toBe(1);
  });

  it("refuses a hook it cannot run, naming it and what is wrong", () => {
    const engine = new HookEngine();
    expect(() => engine.register({ id: "x", event_type: "PreToolCall" })).toThrow(
      /A3S hook "x": unknown event_type "PreToolCall"/,
    );
    expect(() =>
      engine.register(
        Hook.new("y", HookEventType.PreToolUse).with_matcher(HookMatcher.command("(")),
      ),
    ).toThrow(/A3S hook "y": command_pattern "\(" is not a regular expression/);
    expect(engine.hook_count()).toBe(0);
  });

  it("fires matching hooks lower priority first, then in registration order; Block stops the chain", async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    const hook = (id: string, priority: number | undefined, answer = HookResponse.continue_()) => {
      const h = Hook.new(id, HookEventType.PreToolUse);
      engine.register(priority === undefined ? h : h.with_config({ priority }));
      engine.register_handler(id, {
        handle: () => {
          ran.push(id);
          return answer;
        },
      });
    };
    hook("log", 1000);
    hook("default-1", undefined);
    hook("security", 1, HookResponse.continue_());
    hook("default-2", undefined, HookResponse.block("stop here"));
    hook("after-block", 500);
    expect(await engine.fire(pre({ command: "ls" }))).toEqual({
      action: "Block",
      reason: "stop here",
    });
    expect(ran).toEqual(["security", "default-1", "default-2"]);
  });

  it("matches tool exactly, path globs at any depth, command regexes and sessions; all must hold", async () => {
    const engine = new HookEngine();
    const seen: string[] = [];
    const on = (id: string, matcher: HookMatcher) => {
      engine.register(Hook.new(id, HookEventType.PreToolUse).with_matcher(matcher));
      engine.register_handler(id, () => {
        seen.push(id);
        return HookResponse.continue_();
      });
    };
    on("bash", HookMatcher.tool("Bash"));
    on("bas", HookMatcher.tool("Bas"));
    on("rust", HookMatcher.path("*.rs"));
    on("src-ts", HookMatcher.path("src/**/*.ts"));
    on("git", HookMatcher.command("^git\\s+"));
    on("rm-in-session", HookMatcher.tool("Bash").with_command("rm").with_session("session-123"));
    on("other-session", HookMatcher.session("session-9"));

    await engine.fire(pre({ command: "git status" }));
    expect(seen.splice(0)).toEqual(["bash", "git"]);
    await engine.fire(pre({ command: "rm x" }));
    expect(seen.splice(0)).toEqual(["bash", "rm-in-session"]);
    await engine.fire(pre({ file_path: "deep/down/main.rs" }, { tool: "Write" }));
    expect(seen.splice(0)).toEqual(["rust"]);
    await engine.fire(pre({ file_path: "src/a/b.ts" }, { tool: "Edit" }));
    expect(seen.splice(0)).toEqual(["src-ts"]);
    await engine.fire(pre({ file_path: "lib/b.ts" }, { tool: "Edit" }));
    expect(seen.splice(0)).toEqual([]);
  });

  it("applies Continue's modified for the next hook and returns it: args replaced, results merged", async () => {
    const engine = new HookEngine();
    engine.register(Hook.new("add-timeout", HookEventType.PreToolUse).with_config({ priority: 1 }));
    engine.register_handler("add-timeout", {
      handle: (event) => {
        const args = event.payload.args;
        return { action: "Continue", modified: { ...args, timeout: args.timeout || 30000 } };
      },
    });
    const seen: unknown[] = [];
    engine.register(Hook.new("see", HookEventType.PreToolUse));
    engine.register_handler("see", (event) => {
      seen.push(event.payload.args);
      return HookResponse.continue_();
    });
    expect(await engine.fire(pre({ command: "make" }))).toEqual({
      action: "Continue",
      modified: { command: "make", timeout: 30000 },
    });
    expect(seen).toEqual([{ command: "make", timeout: 30000 }]);

    engine.register(Hook.new("redact", HookEventType.PostToolUse));
    engine.register_handler("redact", () => HookResponse.continue_with({ output: "[REDACTED]" }));
    const result = { success: true, output: "sk-1", exit_code: 0, duration_ms: 4 };
    const post = {
      event_type: "PostToolUse",
      payload: { session_id: "s", tool: "Bash", args: {}, result },
    };
    expect(await engine.fire(post)).toEqual({
      action: "Continue",
      modified: { ...result, output: "[REDACTED]" },
    });
  });

  it("Skip stops the hooks and goes on; Retry stops and says how long to wait", async () => {
    const engine = new HookEngine();
    const ran: string[] = [];
    for (const [id, answer] of [
      ["skip", HookResponse.skip()],
      ["never", HookResponse.block("unreached")],
    ] as const) {
      engine.register(Hook.new(id, HookEventType.GenerateStart));
      engine.register_handler(id, () => {
        ran.push(id);
        return answer;
      });
    }
    const start = { event_type: "generate_start", payload: { session_id: "s", prompt: "p" } };
    expect(await engine.fire(start)).toEqual({ action: "Skip" });
    expect(ran).toEqual(["skip"]);

    engine.register(Hook.new("retry", HookEventType.GenerateEnd));
    engine.register_handler("retry", () => HookResponse.retry(5000));
    expect(await engine.fire({ event_type: "GenerateEnd", payload: { session_id: "s" } })).toEqual({
      action: "Retry",
      retry_delay_ms: 5000,
    });
  });

  it("async hooks are started and count as Continue; failing handlers count as Continue and are listed", async () => {
    const engine = new HookEngine();
    let release: () => void = () => {};
    const started: string[] = [];
    engine.register(
      Hook.new("slow-log", HookEventType.PostToolUse).with_config({ async_execution: true }),
    );
    engine.register_handler("slow-log", async () => {
      started.push("slow-log");
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return HookResponse.block("ignored: async");
    });
    engine.register(Hook.new("throws", HookEventType.PostToolUse));
    engine.register_handler("throws", () => {
      throw new Error("boom");
    });
    engine.register(Hook.new("wrong", HookEventType.PostToolUse));
    engine.register_handler("wrong", () => ({ action: "Explode" }) as never);
    engine.register(Hook.new("hangs", HookEventType.PostToolUse).with_config({ timeout_ms: 100 }));
    engine.register_handler("hangs", () => new Promise(() => {}));
    const post = { event_type: "PostToolUse", payload: { session_id: "s" } };
    expect(await engine.fire(post)).toEqual({ action: "Continue" });
    expect(started).toEqual(["slow-log"]);
    release();
    expect(engine.failures()).toEqual([
      'A3S hook "throws" threw boom; counted as Continue',
      'A3S hook "wrong" answered something that is not an A3S HookResponse; counted as Continue',
      'A3S hook "hangs" timed out after 100 ms; counted as Continue',
    ]);
  });

  it("a hook without a handler, or a handler removed, does not run", async () => {
    const engine = new HookEngine();
    engine.register(Hook.new("guard", HookEventType.PreToolUse));
    expect(await engine.fire(pre({ command: "rm -rf /" }))).toEqual({ action: "Continue" });
    engine.register_handler("guard", () => HookResponse.block("no"));
    expect((await engine.fire(pre({ command: "x" }))).action).toBe("Block");
    expect(engine.get_handler("guard")).toBeDefined();
    engine.unregister_handler("guard");
    expect(await engine.fire(pre({ command: "x" }))).toEqual({ action: "Continue" });
    await expect(engine.fire({ event_type: "Nope", payload: {} })).rejects.toThrow(
      /unknown event_type "Nope"/,
    );
  });
});
