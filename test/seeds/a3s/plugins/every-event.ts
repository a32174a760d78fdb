// One hook on each of A3S's six event types, noting every event it gets
// (as JSON lines in A3S_EVENTS_LOG): the fields the test checks against the
// seed's payload interfaces.
import { appendFileSync } from "node:fs";
import { Hook, HookEngine, HookEventType, HookResponse } from "acai-agent/hooks";

const engine = new HookEngine();
const note = (line: string) => appendFileSync(String(process.env.A3S_EVENTS_LOG), `${line}\n`);

for (const type of Object.values(HookEventType)) {
  engine.register(Hook.new(`every-${type}`, type));
  engine.register_handler(`every-${type}`, (event) => {
    note(JSON.stringify({ event_type: event.event_type, payload: event.payload }));
    return HookResponse.continue_();
  });
}

export default engine;
