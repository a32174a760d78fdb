// "Prompt injection, context modification" (A3S GenerateStart, Continue
// with `modified`): the new prompt is what the model is sent.
import { Hook, HookEngine, HookEventType, HookResponse } from "acai-agent/hooks";

const engine = new HookEngine();

// Early (priority 1): later hooks see the prompt as it is sent.
engine.register(
  Hook.new("prompt-context", HookEventType.GenerateStart).with_config({ priority: 1 }),
);

engine.register_handler("prompt-context", {
  handle: (event) => {
    const { prompt } = event.payload;
    if (prompt.startsWith("[ticket ACAI-7]")) return HookResponse.continue_();
    return HookResponse.continue_with({ prompt: `[ticket ACAI-7] ${prompt}` });
  },
});

export default engine;
