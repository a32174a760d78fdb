// Message interception and filtering on "message-received", context on "before-agent-start".
import { appendFileSync } from "node:fs";
import type { PluginApi } from "./types.js";

const log = (entry: Record<string, unknown>) =>
  appendFileSync(String(process.env.CLAW_LOG), `${JSON.stringify(entry)}\n`);

export function register(api: PluginApi): void {
  api.registerHook({
    event: "message-received",
    handler: async (ctx) => {
      log({ senderId: ctx.senderId, direction: ctx.direction, channel: ctx.channel });
      if (ctx.content?.includes("password"))
        return { cancel: true, cancelReason: "no secrets in prompts" };
      if (ctx.content?.includes("colour"))
        return { content: ctx.content.replaceAll("colour", "color") };
      return undefined;
    },
  });
  api.registerHook({
    event: "before-agent-start",
    handler: async () => ({ prependContext: "Project codename: BLUEBIRD" }),
  });
}
