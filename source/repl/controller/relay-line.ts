import type { SessionRelay } from "../../relay/session-relay.js";
import { inertText } from "../../terminal/inert-text.js";
import type { UiStore } from "./store.js";

/**
 * The line that says this session's name among agents (docs/messaging.md),
 * shown only when the relay is in use: at once when the user named the
 * agent (`--name`), else the first time a message arrives or is sent. Once
 * a session.
 */
export function relayLine(
  store: UiStore,
  relay: Pick<SessionRelay, "name">,
  named: boolean,
): () => void {
  let shown = false;
  const show = () => {
    if (shown) return;
    shown = true;
    store.item({
      kind: "banner",
      tone: "dim",
      text: inertText(
        `agent name: ${relay.name} (other agents write @relay:${relay.name} …; acai agents lists them)`,
      ),
    });
  };
  if (named) show();
  return show;
}
