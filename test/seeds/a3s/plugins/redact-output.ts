// "Transform tool results" (A3S PostToolUse, Continue with `modified`): the
// new result's output is what the model sees.
import { Hook, HookEngine, HookEventType, HookMatcher, HookResponse } from "acai-agent/hooks";

const engine = new HookEngine();

engine.register(
  Hook.new("redact-output", HookEventType.PostToolUse).with_matcher(HookMatcher.tool("Bash")),
);

engine.register_handler("redact-output", {
  handle: (event) => {
    const { result } = event.payload;
    return HookResponse.continue_with({
      ...result,
      output: result.output.replaceAll(/sk-[A-Za-z0-9]+/g, "[REDACTED]"),
    });
  },
});

export default engine;
