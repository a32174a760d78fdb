// "before-compaction": preserve important information; "after-compaction": restore state.
import { appendFileSync } from "node:fs";
import type { PluginApi } from "./types.js";

const log = (entry: Record<string, unknown>) =>
  appendFileSync(String(process.env.CLAW_LOG), `${JSON.stringify(entry)}\n`);

export function register(api: PluginApi): void {
  api.registerHook({
    event: "before-compaction",
    handler: (ctx) => {
      log({
        event: "before-compaction",
        tokenCount: ctx.tokenCount,
        messageCount: ctx.messageCount,
      });
      return { context: "Keep the name of the file BLUEBIRD.md" };
    },
  });
  api.registerHook({
    event: "after-compaction",
    handler: (ctx) => {
      log({ event: "after-compaction", summary: ctx.summary });
    },
  });
}
