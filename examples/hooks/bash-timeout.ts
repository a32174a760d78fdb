#!/usr/bin/env node
// TypeScript example, written with the typed helper `acai-agent/hooks`.
// before_tool on Bash: caps the command's timeout at 2 minutes by patching the
// tool input (a JSON Merge Patch: only `timeout` changes, the command stays).
// Run it with Node >= 22.18 or >= 23.6 (type stripping), or compile it with tsc.
import { defineHook, isTool } from "acai-agent/hooks";

const LIMIT_MS = 120_000;

defineHook(
  {
    name: "bash-timeout",
    description: "Caps Bash timeouts at 2 minutes",
    events: ["before_tool"],
    matcher: { tool: "Bash" },
    priority: 200,
    timeout_ms: 5000,
  },
  (event) => {
    if (!isTool(event, "Bash")) return;
    const requested = event.tool_input.timeout;
    if (requested !== undefined && requested <= LIMIT_MS) return;
    return {
      action: "modify",
      input_patch: { timeout: LIMIT_MS },
      log: `timeout ${requested ?? "default"} -> ${LIMIT_MS} ms`,
    };
  },
);
