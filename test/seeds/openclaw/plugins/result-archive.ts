// Data archiving on "tool-result-persist": what is stored for a tool result has its secrets redacted.
import type { PluginApi } from "./types.js";

export function register(api: PluginApi): void {
  api.registerHook({
    event: "tool-result-persist",
    handler: (ctx) => {
      const result = ctx.result as { stdout?: string } | undefined;
      const stdout = result?.stdout ?? "";
      if (!stdout.includes("sk-")) return undefined;
      return {
        message: { role: "tool", content: stdout.replace(/sk-[A-Za-z0-9]+/g, "[REDACTED]") },
      };
    },
  });
}
