/**
 * An answer asked ahead and not used (ask-ahead.ts) is still a hook run with
 * its audit line — also when it is still being thought about as the run
 * closes: the close ends it (its request is aborted) and waits for it before
 * the audit log is closed.
 */
import { describe, expect, it } from "vitest";
import { createHookInterceptor } from "../../../../source/hooks/run/interceptor.js";
import {
  bashHook,
  collect,
  ev,
  fakeAgent,
  interceptorOptions,
  memoryAudit,
  tempDirPerTest,
} from "./support.js";

const dir = tempDirPerTest("acai-ask-ahead-close-");

/** A persistent hook in bash: reads request lines, answers `{"id":N…}` after `delay`. */
const persistent = (name: string, answer: string, delay: string, extra = {}) =>
  bashHook(
    dir.path,
    name,
    `while IFS= read -r line; do
  id=\${line#*\\"id\\":}; id=\${id%%[,\\}]*}
  sleep ${delay}
  echo "{\\"id\\":$id${answer}}"
done`,
    { events: ["before_tool"], launch: { command: "", args: [], viaShell: false }, ...extra },
  );

describe("asking ahead, when the run closes", () => {
  it("audits the unused answer of a hook still thinking when the chain was already decided", async () => {
    const guard = await persistent(
      "guard",
      `,\\"action\\":\\"block\\",\\"reason\\":\\"no\\"`,
      "0",
      {
        priority: 200,
      },
    );
    const slow = await persistent("slow", "", "5", { priority: 100, askAhead: true });
    const hooks = [guard, slow].map((h) => ({
      ...h,
      launch: { command: h.file, args: [], viaShell: false as const, mode: "persistent" as const },
    }));
    const audit = memoryAudit();
    const agent = fakeAgent([ev.toolStart({ command: "rm -rf x" })]);
    await collect(createHookInterceptor(interceptorOptions(dir.path, { hooks, audit }))(agent.run));

    expect(agent.verdicts[0]?.verdict).toMatchObject({ action: "block" });
    // The slow hook was asked with the guard, and its request ended with the run.
    expect(audit.entries.map((e) => [e.hook, e.decision, e.note ?? ""])).toEqual([
      ["guard", "block", ""],
      ["slow", "failed", expect.stringMatching(/^asked ahead of the hooks before it; not used/)],
    ]);
    // Ended by the close (aborted), not waited for through its 5 s.
    expect(audit.entries[1]?.aborted).toBe(true);
  });
});
