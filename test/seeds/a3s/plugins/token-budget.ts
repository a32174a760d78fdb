// A3S "Cost Control: Token Budget", as its users write it. The changes: the
// warning goes to the file A3S_BUDGET_LOG names (a plugin's console output is
// dropped), and the test sets the budget low (A3S_BUDGET) to see it.
import { appendFileSync } from "node:fs";
import { Hook, HookEngine, HookEventType } from "acai-agent/hooks";

const engine = new HookEngine();
const BUDGET = Number(process.env.A3S_BUDGET ?? 100000);
const warn = (line: string) => appendFileSync(String(process.env.A3S_BUDGET_LOG), `${line}\n`);

// Track and limit token usage
const sessionTokens = new Map<string, number>();

engine.register(Hook.new("token-budget", HookEventType.GenerateEnd));

engine.register_handler("token-budget", {
  handle: (event) => {
    const { session_id, usage } = event.payload;
    const current = sessionTokens.get(session_id) || 0;
    const updated = current + usage.total_tokens;
    sessionTokens.set(session_id, updated);

    if (updated > BUDGET) {
      warn(`Session ${session_id} exceeded ${BUDGET} tokens: ${updated}`);
    }
    return { action: "Continue" };
  },
});

export default engine;
