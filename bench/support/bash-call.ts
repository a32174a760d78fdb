/**
 * What the hook benchmarks share: the benchmark's own environment as a
 * hook's parent environment, and one Bash tool call with the `before_tool`
 * payload a hook receives for it.
 */
import path from "node:path";
import type { AgentEvent } from "../../dist/agent/events.js";
import { buildPayload } from "../../dist/hooks/contract/payload.js";

/** process.env without its unset entries. */
export function parentEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  return env;
}

/** `ls -la` as a tool_call_start, and its before_tool payload in a session rooted at `root`. */
export function bashToolCall(root: string): { toolStart: AgentEvent; payload: unknown } {
  const toolStart: AgentEvent = {
    type: "tool_call_start",
    turn: 1,
    step: 1,
    toolCallId: "c1",
    toolName: "Bash",
    input: { command: "ls -la" },
  };
  const session = { sessionId: "bench", transcriptPath: path.join(root, "t.jsonl"), cwd: root };
  const payload = buildPayload({
    event: "before_tool",
    agentEvent: toolStart,
    session,
    dialect: "acai",
    now: Date.now(),
  });
  return { toolStart, payload };
}
