#!/usr/bin/env python3
"""Python example: appends one JSON line per finished tool call to a log.

Observes only (prints nothing, exits 0). The log is $TOOL_CALL_LOG, or
.acai/tool-calls.jsonl in the project.
"""
import json
import os
import sys

METADATA = {
    "name": "log-tool-calls",
    "description": "Appends every tool call (and its outcome) to .acai/tool-calls.jsonl",
    "events": ["after_tool", "after_tool_failure"],
    "priority": 10,
    "timeout_ms": 3000,
}

if os.environ.get("HOOK_ACTION", "execute") == "describe":
    print(json.dumps(METADATA))
    sys.exit(0)

event = json.load(sys.stdin)
project = os.environ.get("ACAI_PROJECT_DIR") or event.get("cwd") or os.getcwd()
log_file = os.environ.get("TOOL_CALL_LOG") or os.path.join(project, ".acai", "tool-calls.jsonl")
os.makedirs(os.path.dirname(log_file), exist_ok=True)

record = {
    "time": event.get("timestamp"),
    "session": event.get("session_id"),
    "tool": event.get("tool_name"),
    "input": event.get("tool_input"),
    "ok": event["event"] == "after_tool",
    "duration_ms": event.get("duration_ms"),
}
if event["event"] == "after_tool_failure":
    record["error"] = event.get("error")

with open(log_file, "a", encoding="utf-8") as f:
    f.write(json.dumps(record) + "\n")
