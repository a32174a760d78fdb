/**
 * acai-ts's and agent-relay's event names (issue 20 item 8): each is
 * accepted wherever an event name is (settings, describe, plugins) and means
 * the acai event raised at that moment; names neither system has stay unknown.
 */
import { describe, expect, it } from "vitest";
import { normalizeEventName } from "../../../../source/hooks/contract/events/names.js";
import {
  ACAI_TS_EVENTS,
  RELAY_EVENTS,
} from "../../../../source/hooks/contract/events/system-names.js";

describe("other systems' event names", () => {
  it("acai-ts's agent events are the hook events raised at the same moment", () => {
    expect(ACAI_TS_EVENTS).toEqual({
      "agent-start": "user_prompt",
      "step-start": "before_model",
      "tool-call-start": "before_tool",
      "tool-call-end": "after_tool",
      "agent-stop": "after_agent",
    });
    for (const [name, event] of Object.entries(ACAI_TS_EVENTS)) {
      expect(normalizeEventName(name)).toBe(event);
    }
  });

  it("agent-relay's lifecycle hooks, as in relay.config.ts and as given to relay.on", () => {
    expect(normalizeEventName("onSessionStart")).toBe("session_start");
    expect(normalizeEventName("sessionStart")).toBe("session_start");
    expect(normalizeEventName("onOutput")).toBe("output");
    expect(normalizeEventName("onIdle")).toBe("idle");
    expect(normalizeEventName("onMessageReceived")).toBe("message_received");
    expect(normalizeEventName("onSessionEnd")).toBe("session_end");
    expect(normalizeEventName("onToolCall")).toBe("before_tool");
    for (const [name, event] of Object.entries(RELAY_EVENTS)) {
      expect(normalizeEventName(name)).toBe(event);
    }
  });

  it("names neither system has stay unknown (a hook on one is broken, not idle)", () => {
    expect(normalizeEventName("agent-error")).toBeUndefined();
    expect(normalizeEventName("onSomething")).toBeUndefined();
    expect(normalizeEventName("toString")).toBeUndefined();
    expect(normalizeEventName("__proto__")).toBeUndefined();
  });
});
