// The seed's own example: an audit logging hook on "message-sent".
import { appendFile } from "node:fs/promises";
import type { PluginApi } from "./types.js";

const auditLog = {
  async record(entry: Record<string, unknown>): Promise<void> {
    await appendFile(String(process.env.CLAW_LOG), `${JSON.stringify(entry)}\n`);
  },
};

export function register(api: PluginApi): void {
  // Example: audit logging hook
  api.registerHook({
    event: "message-sent",
    handler: async (ctx) => {
      await auditLog.record({
        sessionKey: ctx.sessionKey,
        channel: ctx.channel,
        direction: ctx.direction,
        timestamp: Date.now(),
      });
    },
    priority: 100, // Run after other hooks
  });
}
