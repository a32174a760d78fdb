import { describe, expect, it } from "vitest";
import { parseTranscript } from "../../../source/cli/hooks/replay-transcript.js";

const line = (value: unknown) => JSON.stringify(value);

describe("parseTranscript", () => {
  it("gives a verdict to the latest event of its type, past events raised while the gate waited", () => {
    const text = [
      line({ type: "event", event: { type: "permission_request", toolName: "Bash", input: {} } }),
      // The user was asked: a notification is recorded before the gate's verdict.
      line({
        type: "event",
        event: { type: "notification", message: "asks", notificationType: "permission_prompt" },
      }),
      line({ type: "verdict", for: "permission_request", verdict: { action: "allow" } }),
      line({ type: "event", event: { type: "tool_call_start", toolName: "Bash", input: {} } }),
      line({ type: "verdict", for: "tool_call_start", verdict: { action: "block", reason: "no" } }),
      // A verdict for an event that already has one is not moved onto it.
      line({
        type: "verdict",
        for: "permission_request",
        verdict: { action: "block", reason: "late" },
      }),
    ].join("\n");
    const events = parseTranscript(text, "t.jsonl");
    expect(events.map((e) => [e.event.type, e.applied?.action])).toEqual([
      ["permission_request", "allow"],
      ["notification", undefined],
      ["tool_call_start", "block"],
    ]);
  });
});
