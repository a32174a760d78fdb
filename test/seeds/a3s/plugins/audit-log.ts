// A3S "Logging: Audit Trail", as its users write it. The one change: a
// plugin's console output is dropped by acai (docs/plugins.md), so the line
// goes to the file A3S_AUDIT_LOG names instead of console.log.
import { appendFileSync } from "node:fs";
import { Hook, HookEngine, HookEventType } from "acai-agent/hooks";

const engine = new HookEngine();
const log = (line: string) => appendFileSync(String(process.env.A3S_AUDIT_LOG), `${line}\n`);

// Log all tool executions
engine.register(
  Hook.new("audit-log", HookEventType.PostToolUse).with_config({
    async_execution: true,
    priority: 1000,
  }),
);

engine.register_handler("audit-log", {
  handle: (event) => {
    const { tool, args, result } = event.payload;
    log(
      JSON.stringify({
        timestamp: new Date().toISOString(),
        session: event.payload.session_id,
        tool,
        args,
        success: result.success,
        duration_ms: result.duration_ms,
      }),
    );
    return { action: "Continue" };
  },
});

export default engine;
