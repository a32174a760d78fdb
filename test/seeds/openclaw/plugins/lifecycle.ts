// Gateway and session lifecycle: initialize external services, load session context,
// save session state, clean up resources.
import { appendFileSync } from "node:fs";
import type { PluginApi, PluginHookName } from "./types.js";

const log = (entry: Record<string, unknown>) =>
  appendFileSync(String(process.env.CLAW_LOG), `${JSON.stringify(entry)}\n`);

export function register(api: PluginApi): void {
  const hooks: PluginHookName[] = ["gateway-start", "session-start", "session-end", "gateway-stop"];
  for (const event of hooks) {
    api.registerHook({
      event,
      handler: async (ctx) => {
        log({
          event,
          sessionKey: ctx.sessionKey,
          channel: ctx.channel,
          runId: ctx.runId,
          agentDir: ctx.agentDir,
          workspaceDir: ctx.workspaceDir,
          model: ctx.config.model,
        });
      },
    });
  }
}
