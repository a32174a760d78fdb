/**
 * Opens the relay transport the settings name: the embedded store under
 * ACAI_HOME by default, a NATS server when `relay.url` is set (its client is
 * imported only then). Both keep undelivered messages in the local store.
 */
import { EmbeddedTransport } from "./embedded.js";
import type { RelaySettings } from "./settings.js";
import { RelayStore, relayDir } from "./store.js";
import type { RelayTransport } from "./transport.js";
import { wakeDir } from "./wake.js";

export interface OpenRelayOptions {
  acaiHome: string;
  settings: RelaySettings;
  now?: () => number;
}

export async function openRelay(options: OpenRelayOptions): Promise<RelayTransport> {
  const dir = relayDir(options.acaiHome);
  const store = await RelayStore.open({ dir, ...(options.now ? { now: options.now } : {}) });
  const url = options.settings.url;
  if (url !== undefined) {
    const { NatsTransport } = await import("./nats.js");
    try {
      return await NatsTransport.connect({ url, store, wakeDir: wakeDir(dir) });
    } catch (error) {
      store.close();
      throw error;
    }
  }
  return new EmbeddedTransport({
    store,
    wakeDir: wakeDir(dir),
    ...(options.now ? { now: options.now } : {}),
  });
}
