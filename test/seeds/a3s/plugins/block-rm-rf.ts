// A3S "Security: Block Dangerous Commands", as its users write it.
import { Hook, HookEngine, HookEventType, HookMatcher } from "acai-agent/hooks";

const engine = new HookEngine();

// Block rm -rf commands
engine.register(
  Hook.new("block-rm-rf", HookEventType.PreToolUse)
    .with_matcher(HookMatcher.command("rm\\s+-rf"))
    .with_config({ priority: 1 }),
);

engine.register_handler("block-rm-rf", {
  handle: (_event) => ({
    action: "Block",
    reason: "Recursive force deletion is not allowed",
  }),
});

export default engine;
