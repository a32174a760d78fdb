/**
 * What agent-relay's hooks (a relay.config.ts, `relay.on`, a pattern
 * handler `(target, message, ctx)`) reach of the session through `ctx`: the
 * relay context the tracker keeps, and `ctx.memory` over the session's
 * memory. Every request from a worker is checked (zod) before it is served.
 */
import { z } from "zod";
import type { RelayContextTracker } from "../hooks/run/plugins/relay-context.js";
import type { PluginRelay } from "../hooks/run/plugins/thread.js";
import type { HookMemory } from "../memory/session.js";

const Text = z.lazy(() => z.string().max(10_000));
const MemoryRequestSchema = z.lazy(() =>
  z.discriminatedUnion("op", [
    z.object({ op: z.literal("memory.search"), args: z.tuple([Text]) }),
    z.object({ op: z.literal("memory.list"), args: z.tuple([]) }),
    z.object({ op: z.literal("memory.add"), args: z.tuple([Text]) }),
    z.object({ op: z.literal("memory.forget"), args: z.tuple([z.string().regex(/^#?\d{1,15}$/)]) }),
  ]),
);

export function pluginRelay(
  tracker: RelayContextTracker,
  memory: HookMemory | undefined,
): PluginRelay {
  return {
    context: () => tracker.context(),
    request: async (op, args) => {
      if (memory === undefined) throw new Error("memory is off (memory.enabled: false)");
      const parsed = MemoryRequestSchema.safeParse({ op, args });
      if (!parsed.success) throw new Error(`not a ctx.memory call acai serves: ${op}`);
      const request = parsed.data;
      switch (request.op) {
        case "memory.search":
          return memory.search(request.args[0]);
        case "memory.list":
          return memory.list();
        case "memory.add":
          return memory.add(request.args[0]);
        case "memory.forget":
          return memory.forget(Number(request.args[0].replace("#", "")));
        default:
          return request satisfies never;
      }
    },
  };
}
