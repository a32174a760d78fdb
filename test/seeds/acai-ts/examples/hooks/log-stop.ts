#!/usr/bin/env node
// An acai-ts observer: every agent-stop is appended to $STOP_LOG.
import { appendFileSync, readFileSync } from "node:fs";

if (process.env.HOOK_ACTION === "describe") {
  console.log(JSON.stringify({ name: "log-stop", events: ["agent-stop"] }));
  process.exit(0);
}

const event = JSON.parse(readFileSync(0, "utf8"));
appendFileSync(String(process.env.STOP_LOG), `${event.hook_event_name}\n`);
