// Hooks added while the plugin runs (after register() returned): api.registerHook at any time.
import type { PluginApi } from "./types.js";

export function register(api: PluginApi): void {
  let added = false;
  api.registerHook({
    event: "before-agent-start",
    handler: async () => {
      if (added) return undefined;
      added = true;
      api.registerHook({
        event: "before-tool-call",
        handler: async (ctx) =>
          String(ctx.args?.command ?? "").includes("late")
            ? { block: true, blockReason: "blocked by a hook added later" }
            : undefined,
      });
      // A hook OpenClaw does not have: acai says so.
      api.registerHook({ event: "agent-end" as "gateway-stop", handler: async () => {} });
      return undefined;
    },
  });
}
