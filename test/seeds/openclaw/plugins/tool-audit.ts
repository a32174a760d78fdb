// Result processing and auditing on "after-tool-call": handlers run in parallel, and one
// that throws or hangs does not stop the others.
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { PluginApi } from "./types.js";

const dir = String(process.env.CLAW_DIR);
const log = (entry: Record<string, unknown>) =>
  appendFileSync(path.join(dir, "audit.jsonl"), `${JSON.stringify(entry)}\n`);

/** Marks `mine`, then waits (at most 10 s) for `other`: both finish only if they run at once. */
async function meet(mine: string, other: string): Promise<boolean> {
  writeFileSync(path.join(dir, mine), "");
  for (let i = 0; i < 200; i++) {
    if (existsSync(path.join(dir, other))) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

export function register(api: PluginApi): void {
  api.registerHook({
    event: "after-tool-call",
    priority: 1,
    handler: async (ctx) => {
      const met = await meet(`a-${ctx.tool_use_id}`, `b-${ctx.tool_use_id}`);
      log({
        by: "a",
        met,
        toolName: ctx.toolName,
        args: ctx.args,
        result: ctx.result,
        error: ctx.error,
      });
    },
  });
  api.registerHook({
    event: "after-tool-call",
    priority: 2,
    handler: async (ctx) => {
      const met = await meet(`b-${ctx.tool_use_id}`, `a-${ctx.tool_use_id}`);
      log({ by: "b", met, toolName: ctx.toolName });
    },
  });
  api.registerHook({
    event: "after-tool-call",
    handler: () => {
      throw new Error("audit sink unavailable");
    },
  });
  api.registerHook({
    event: "after-tool-call",
    handler: () => new Promise(() => {}), // never settles
  });
}
