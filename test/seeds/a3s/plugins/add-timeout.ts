// A3S "Transformation: Modify Tool Arguments", as its users write it.
import { Hook, HookEngine, HookEventType, HookMatcher } from "acai-agent/hooks";

const engine = new HookEngine();

// Add timeout to all Bash commands
engine.register(
  Hook.new("add-timeout", HookEventType.PreToolUse).with_matcher(HookMatcher.tool("Bash")),
);

engine.register_handler("add-timeout", {
  handle: (event) => {
    const args = event.payload.args;
    return {
      action: "Continue",
      modified: {
        ...args,
        timeout: args.timeout || 30000, // Default 30s timeout
      },
    };
  },
});

export default engine;
