import { describe, expect, it } from "vitest";
import type { HookDefinition } from "../../../../source/hooks/contract/definition.js";
import {
  createHookInterceptor,
  type InterceptorOptions,
} from "../../../../source/hooks/run/interceptor.js";
import type { RunOptions, RunResult } from "../../../../source/process/types.js";
import { runner } from "../../support.js";
import {
  answerHook,
  collect,
  ev,
  fakeAgent,
  interceptorOptions,
  tempDirPerTest,
} from "./support.js";

const dir = tempDirPerTest("acai-matching-");

function options(
  hooks: HookDefinition[],
  extra: Partial<InterceptorOptions> = {},
): InterceptorOptions {
  return interceptorOptions(dir.path, { hooks, ...extra });
}

describe("interceptor matching", () => {
  it("hooks that do not match start no process", async () => {
    const spawned: RunOptions[] = [];
    const countingRunner = async (run: RunOptions): Promise<RunResult> => {
      spawned.push(run);
      return runner(run);
    };
    const hooks = [
      await answerHook(
        dir.path,
        "writes",
        { action: "block" },
        { matcher: { tool: "Write|Edit" } },
      ),
      await answerHook(dir.path, "rm", { action: "block" }, { matcher: { command: "rm\\s+-rf" } }),
      await answerHook(
        dir.path,
        "resume",
        { context: "x" },
        { events: ["session_start"], matcher: { source: "resume" } },
      ),
    ];
    const agent = fakeAgent([
      ev.sessionStart(),
      ev.toolStart({ command: "ls" }),
      ev.toolStart({ command: "ls -l" }),
    ]);
    await collect(createHookInterceptor(options(hooks, { runner: countingRunner }))(agent.run));
    expect(spawned).toEqual([]);
    expect(agent.verdicts.map((v) => v.verdict)).toEqual([undefined, undefined, undefined]);
  });

  it("a hook that matches the input runs; the same hook skips another input of the same tool", async () => {
    const guard = await answerHook(
      dir.path,
      "rm",
      { action: "block", reason: "no rm" },
      { matcher: { command: "rm\\s+-rf" } },
    );
    const agent = fakeAgent([
      ev.toolStart({ command: "ls" }),
      ev.toolStart({ command: "rm -rf build" }),
    ]);
    await collect(createHookInterceptor(options([guard]))(agent.run));
    expect(agent.verdicts.map((v) => v.verdict)).toEqual([
      undefined,
      { action: "block", reason: "no rm" },
    ]);
  });

  it("later hooks are matched against the input as modified by earlier ones", async () => {
    const rewriter = await answerHook(
      dir.path,
      "rewriter",
      { action: "modify", input: { command: "rm -rf /tmp/x" } },
      { priority: 500 },
    );
    const guard = await answerHook(
      dir.path,
      "guard",
      { action: "block", reason: "caught" },
      {
        priority: 100,
        matcher: { command: "rm\\s+-rf" },
      },
    );
    const agent = fakeAgent([ev.toolStart({ command: "ls" })]);
    await collect(createHookInterceptor(options([guard, rewriter]))(agent.run));
    expect(agent.verdicts[0]?.verdict).toEqual({ action: "block", reason: "caught" });

    const sanitizer = await answerHook(
      dir.path,
      "sanitizer",
      { action: "modify", input: { command: "ls" } },
      { priority: 500 },
    );
    const second = fakeAgent([ev.toolStart({ command: "rm -rf /" })]);
    await collect(createHookInterceptor(options([guard, sanitizer]))(second.run));
    expect(second.verdicts[0]?.verdict).toEqual({ action: "continue", input: { command: "ls" } });
  });
});
