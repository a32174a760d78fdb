// A3S "Validation: Restrict File Access", as its users write it.
import { Hook, HookEngine, HookEventType, HookMatcher } from "acai-agent/hooks";

const engine = new HookEngine();

// Only allow writing to specific directories
engine.register(
  Hook.new("restrict-writes", HookEventType.PreToolUse).with_matcher(HookMatcher.tool("Write")),
);

engine.register_handler("restrict-writes", {
  handle: (event) => {
    const path = event.payload.args.file_path;
    if (!path.startsWith("/workspace/")) {
      return {
        action: "Block",
        reason: `Write access denied: ${path} is outside workspace`,
      };
    }
    return { action: "Continue" };
  },
});

export default engine;
