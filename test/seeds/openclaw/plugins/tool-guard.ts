// Permission checks and argument modification on "before-tool-call".
import type { PluginApi } from "./types.js";

export function register(api: PluginApi): void {
  api.registerHook({
    event: "before-tool-call",
    priority: 1, // security first
    handler: async (ctx) => {
      const command = String(ctx.args?.command ?? "");
      if (ctx.toolName === "Bash" && /rm\s+-rf/.test(command)) {
        return { block: true, blockReason: "recursive deletes are not allowed" };
      }
      if (ctx.toolName === "Bash" && command.startsWith("echo ")) {
        return { params: { ...ctx.args, command: `${command} (checked)` } };
      }
      return undefined;
    },
  });
}
