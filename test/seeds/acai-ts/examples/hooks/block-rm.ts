#!/usr/bin/env node
// An acai-ts hook (seed 004): a process in .acai/hooks that describes itself
// when TOOL_ACTION-style HOOK_ACTION=describe, then gets the agent event as
// JSON on stdin and answers observe / block / modify on stdout.
import { readFileSync } from "node:fs";

if (process.env.HOOK_ACTION === "describe") {
  console.log(JSON.stringify({ name: "block-rm", events: ["tool-call-start"] }));
  process.exit(0);
}

const event = JSON.parse(readFileSync(0, "utf8"));
const command: string = event.tool_input?.command ?? "";
if (/\brm\s+-rf\b/.test(command)) {
  console.log(JSON.stringify({ action: "block", reason: "acai-ts hook: no rm -rf" }));
} else if (command === "echo old") {
  console.log(JSON.stringify({ action: "modify", input: { command: "echo MODIFIED-BY-HOOK" } }));
} else {
  console.log(JSON.stringify({ action: "continue" }));
}
