// Message modification and auditing on "message-sending": the messages acai sends are those to
// other agents (`@relay:NAME` lines). One handler redacts keys or cancels a message; a second,
// registered under OpenClaw's snake_case name, signs what goes out (it sees the redacted text).
import { appendFileSync } from "node:fs";
import type { PluginApi } from "./types.js";

const log = (entry: Record<string, unknown>) =>
  appendFileSync(String(process.env.CLAW_LOG), `${JSON.stringify(entry)}\n`);

export function register(api: PluginApi): void {
  api.registerHook({
    event: "message-sending",
    priority: 1, // redact before anything else sees the message
    handler: async (ctx) => {
      log({ to: ctx.to, senderId: ctx.senderId, direction: ctx.direction, content: ctx.content });
      if (ctx.content?.includes("CONFIDENTIAL")) return { cancel: true };
      if (ctx.content?.includes("sk-"))
        return { content: ctx.content.replace(/sk-[A-Za-z0-9]+/g, "[key]") };
      return undefined;
    },
  });
  api.registerHook({
    event: "message_sending",
    priority: 50,
    handler: async (ctx) => ({ content: `${ctx.content} -- sent by ${ctx.senderId}` }),
  });
}
