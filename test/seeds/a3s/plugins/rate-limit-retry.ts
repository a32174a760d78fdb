// A3S "Retry Logic: Rate Limit Handling", as its users write it, with an
// `isRateLimited` of the test's: the first generation of each session is
// rate limited once. Every call is noted in A3S_RETRY_LOG.
import { appendFileSync } from "node:fs";
import { Hook, HookEngine, HookEventType } from "acai-agent/hooks";

const engine = new HookEngine();
const limited = new Set<string>();
const note = (line: string) => appendFileSync(String(process.env.A3S_RETRY_LOG), `${line}\n`);

function isRateLimited(sessionId: string): boolean {
  if (limited.has(sessionId)) return false;
  limited.add(sessionId);
  return true;
}

engine.register(Hook.new("rate-limit-retry", HookEventType.GenerateStart));

engine.register_handler("rate-limit-retry", {
  handle: (event) => {
    // Check if rate limited (example logic)
    if (isRateLimited(event.payload.session_id)) {
      note("retry");
      return {
        action: "Retry",
        retry_delay_ms: 5000, // Wait 5 seconds
      };
    }
    note("continue");
    return { action: "Continue" };
  },
});

export default engine;
