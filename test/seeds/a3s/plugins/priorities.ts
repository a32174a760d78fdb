// A3S "Priority", as its users write it (plain registrations, snake_case
// event types, the plugin API as `engine`): the security check (10) runs
// first and the audit log (1000) last, whatever the order of registration.
// Each handler notes its id in A3S_ORDER_LOG.
import { appendFileSync } from "node:fs";
import type { HookEngine } from "acai-agent/hooks";

const ran = (id: string) => appendFileSync(String(process.env.A3S_ORDER_LOG), `${id}\n`);

export function register(engine: HookEngine) {
  // Logging runs last (priority 1000)
  engine.register({
    id: "audit-log",
    event_type: "pre_tool_use",
    config: { priority: 1000 },
  });

  // Security check runs first (priority 10)
  engine.register({
    id: "security-check",
    event_type: "pre_tool_use",
    config: { priority: 10 },
  });

  for (const id of ["audit-log", "security-check"]) {
    engine.register_handler(id, {
      handle: () => {
        ran(id);
        return { action: "Continue" };
      },
    });
  }
}
