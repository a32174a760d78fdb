/**
 * Whose messages an agent takes (`relay.acceptFrom`). A message that is not
 * taken is dropped before the model or any hook sees it, with a note to the
 * user. What a sender is depends on the way the message came:
 *
 * - the embedded store: a process of this OS user on this machine (the store
 *   is private to the user, store-files.ts); the name is the one it gave;
 * - NATS: the key that signed it (nats-envelope.ts), the name it claims (held
 *   by the first key that used it, store.ts `pinPeer`), and whether this
 *   agent's own connection is authenticated (then the server let only clients
 *   of the same account publish to it).
 *
 * Without `acceptFrom`: everything from the store; over NATS, messages signed
 * with this ACAI_HOME's key, or any signed message when the connection is
 * authenticated. With it: only senders whose name matches one of its entries.
 */
import picomatch from "picomatch";

export type Sender =
  | { via: "store"; name: string }
  | { via: "nats"; name: string; ownKey: boolean; authenticated: boolean };

type Acceptance = { ok: true } | { ok: false; why: string };

export type AcceptPolicy = (sender: Sender) => Acceptance;

export function acceptPolicy(acceptFrom: readonly string[] | undefined): AcceptPolicy {
  if (acceptFrom !== undefined) {
    const matches = picomatch([...acceptFrom], { dot: true, nocase: false });
    return (sender) =>
      matches(sender.name)
        ? { ok: true }
        : { ok: false, why: "relay.acceptFrom in settings does not name it" };
  }
  return (sender) => {
    switch (sender.via) {
      case "store":
        return { ok: true };
      case "nats":
        if (sender.ownKey || sender.authenticated) return { ok: true };
        return {
          ok: false,
          why: "it is not signed by this ACAI_HOME and the NATS server does not authenticate its clients (add relay.auth, or the sender's name to relay.acceptFrom)",
        };
      default:
        return sender satisfies never;
    }
  };
}

/** The note the user gets for a dropped message (never the model). */
export function droppedNote(sender: Sender, why: string): string {
  const how = sender.via === "nats" ? "over NATS" : "in the relay store";
  return `a message from ${sender.name} ${how} was dropped: ${why}`;
}
