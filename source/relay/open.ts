/**
 * Opens the relay transport the settings name: the embedded store under
 * ACAI_HOME by default, a NATS server when `relay.url` is set (its client is
 * imported only then, and only with the access nats-auth.ts allows). Both keep
 * undelivered messages in the local store.
 */

import type { RelaySettings } from "../config/relay-settings.js";
import { EmbeddedTransport } from "./embedded.js";
import { loadIdentity } from "./identity.js";
import { natsAccess } from "./nats-auth.js";
import { RelayStore, relayDir } from "./store.js";
import { currentOwner, type FileOwner } from "./store-files.js";
import type { OnNote, RelayTransport } from "./transport.js";
import { wakeDir } from "./wake.js";

export interface OpenRelayOptions {
  acaiHome: string;
  settings: RelaySettings;
  /** For the secrets `relay.auth` names. */
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
  /** Lines for the user: dropped messages, malformed rows moved aside. */
  onNote?: OnNote;
  owner?: FileOwner;
  now?: () => number;
}

export interface OpenedRelay {
  transport: RelayTransport;
  /** Said once, when the relay opens (a NATS server without authentication). */
  warnings: string[];
}

export async function openRelay(options: OpenRelayOptions): Promise<OpenedRelay> {
  const { settings } = options;
  const dir = relayDir(options.acaiHome);
  const url = settings.url;
  const owner = options.owner ?? currentOwner();
  // Settings and credentials first: a refusal opens nothing.
  const access =
    url === undefined
      ? undefined
      : natsAccess(url, settings, { env: options.env, homeDir: options.homeDir });
  const store = await RelayStore.open({
    dir,
    owner,
    ...(options.onNote ? { onProblem: options.onNote } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  const common = {
    store,
    wakeDir: wakeDir(dir),
    ...(settings.acceptFrom ? { acceptFrom: settings.acceptFrom } : {}),
    ...(options.onNote ? { onNote: options.onNote } : {}),
    ...(options.now ? { now: options.now } : {}),
  };
  if (access === undefined) return { transport: new EmbeddedTransport(common), warnings: [] };
  try {
    const { NatsTransport } = await import("./nats.js");
    const transport = await NatsTransport.connect({
      ...common,
      access,
      identity: loadIdentity(dir, owner),
      ...(settings.shareDetails ? { shareDetails: true } : {}),
    });
    return { transport, warnings: access.warnings };
  } catch (error) {
    store.close();
    throw error;
  }
}
