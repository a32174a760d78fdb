/**
 * The embedded transport: the SQLite store under `ACAI_HOME/relay/`, shared
 * by the agents of one machine, with no server. Senders store the message and
 * ring the recipient's wake file; the recipient reads its messages when woken
 * (or by its 2-second fallback poll). At most `MAX_IN_FLIGHT` messages are
 * read into memory at once; the rest wait in the store.
 */
import { type AcceptPolicy, acceptPolicy, droppedNote } from "./accept.js";
import { BROADCAST, checkOutgoing, messageFor, type Outgoing, RelayError } from "./message.js";
import type { AgentRecord, RelayStore } from "./store.js";
import {
  NameTakenError,
  type OnMessage,
  type OnNote,
  type RelayTransport,
  type SendOptions,
  type SendReport,
} from "./transport.js";
import { ring, type WakeWatch, watchWake } from "./wake.js";

/** Messages read from the store and not yet settled, per receiver. */
export const MAX_IN_FLIGHT = 100;

export interface EmbeddedOptions {
  store: RelayStore;
  wakeDir: string;
  now?: () => number;
  fallbackPollMs?: number;
  /** Whose messages are taken (`relay.acceptFrom`; default: every one in the store). */
  acceptFrom?: readonly string[];
  /** Where a dropped message is said. */
  onNote?: OnNote;
}

export class EmbeddedTransport implements RelayTransport {
  readonly kind = "embedded";
  readonly #options: EmbeddedOptions;
  readonly #now: () => number;
  readonly #accept: AcceptPolicy;
  #self: AgentRecord | undefined;
  #watch: WakeWatch | undefined;
  #onMessage: OnMessage | undefined;
  #lastSeq = 0;
  readonly #inFlight = new Set<string>();
  /** The last read filled the in-flight cap: more may wait in the store. */
  #capped = false;
  #closed = false;

  constructor(options: EmbeddedOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#accept = acceptPolicy(options.acceptFrom);
  }

  async join(self: AgentRecord, onMessage: OnMessage): Promise<void> {
    const holder = this.#options.store.register(self);
    if (holder) throw new NameTakenError(holder);
    this.#self = self;
    this.#onMessage = onMessage;
    this.#watch = watchWake(
      this.#options.wakeDir,
      self.name,
      () => this.#fetch(),
      this.#options.fallbackPollMs,
    );
    this.#fetch();
  }

  async send(out: Outgoing, options: SendOptions = {}): Promise<SendReport> {
    checkOutgoing(out);
    const { store } = this.#options;
    const running = store.running().map((agent) => agent.name);
    const now = this.#now();
    if (out.to === BROADCAST) {
      const recipients = running.filter((name) => name !== out.from);
      store.enqueue(recipients.map((name) => messageFor(out, name, now)));
      for (const name of recipients) ring(this.#options.wakeDir, name);
      return { delivered: recipients, kept: [] };
    }
    const isRunning = running.includes(out.to);
    if (!isRunning && !options.allowUnknown && !store.known(out.to)) {
      throw new UnknownAgentError(out.to, running);
    }
    store.enqueue([messageFor(out, out.to, now)]);
    if (isRunning) ring(this.#options.wakeDir, out.to);
    return isRunning ? { delivered: [out.to], kept: [] } : { delivered: [], kept: [out.to] };
  }

  async agents(): Promise<AgentRecord[]> {
    return this.#options.store.running();
  }

  settle(id: string): void {
    if (!this.#inFlight.delete(id) || this.#closed) return;
    this.#options.store.markDelivered(id);
    // Room again: read what waited beyond the in-flight cap.
    if (this.#capped) queueMicrotask(() => this.#fetch());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watch?.close();
    if (this.#self) this.#options.store.unregister(this.#self.name, this.#self.sessionId);
    this.#options.store.close();
  }

  #fetch(): void {
    const self = this.#self;
    const onMessage = this.#onMessage;
    if (this.#closed || !self || !onMessage) return;
    const room = MAX_IN_FLIGHT - this.#inFlight.size;
    if (room <= 0) return;
    let stored: ReturnType<RelayStore["pending"]>;
    try {
      stored = this.#options.store.pending(self.name, this.#lastSeq, room);
    } catch {
      return; // Busy past the timeout: the next wake or poll reads them.
    }
    this.#capped = stored.length === room;
    for (const { seq, message } of stored) {
      this.#lastSeq = seq;
      const sender = { via: "store", name: message.from } as const;
      const accepted = this.#accept(sender);
      if (!accepted.ok) {
        this.#options.store.markDelivered(message.id);
        this.#options.onNote?.(droppedNote(sender, accepted.why));
        continue;
      }
      this.#inFlight.add(message.id);
      onMessage(message);
    }
  }
}

export class UnknownAgentError extends RelayError {
  override name = "UnknownAgentError";
  constructor(
    readonly recipient: string,
    readonly running: readonly string[],
  ) {
    const list = running.length > 0 ? `running: ${running.join(", ")}` : "no agent is running";
    super(
      `no agent named ${recipient} has run here (${list}); check the name with acai agents, or keep the message for it with --queue`,
    );
  }
}
