/**
 * The NATS transport, for agents on several machines (`relay.url`). Core NATS
 * only (JetStream is not required of the server):
 *
 * - `acai.relay.to.<name>`: a direct message, as a request; the recipient
 *   stores it in its own local store, then acknowledges. Delivery to the agent
 *   goes through that store (embedded.ts), so it is at least once and survives
 *   a busy agent.
 * - `acai.relay.who`: every agent answers with its record (`acai agents`,
 *   broadcasts); `acai.relay.name.<name>`: the holder of a name answers (a
 *   second agent of that name is refused).
 * - `acai.relay.online`: an agent that starts says so; agents that hold kept
 *   messages for it forward them.
 *
 * A message for an agent not running anywhere is kept in the sender's local
 * store: delivered when an agent of that name starts on that machine, or
 * forwarded when it starts elsewhere while an agent of the sender's machine runs.
 *
 * Every message on the wire is signed with the sender's ACAI_HOME key
 * (nats-envelope.ts); the receiver takes it only when accept.ts says so, and
 * answers `who` with names only unless `relay.shareDetails` is on.
 */
import type { ConnectionOptions, NatsConnection, Subscription } from "@nats-io/transport-node";
import { z } from "zod";
import { type AcceptPolicy, acceptPolicy, droppedNote, type Sender } from "./accept.js";
import { EmbeddedTransport, UnknownAgentError } from "./embedded.js";
import type { RelayIdentity } from "./identity.js";
import {
  BROADCAST,
  checkOutgoing,
  messageFor,
  type Outgoing,
  type RelayMessage,
} from "./message.js";
import { agentNameSchema } from "./names.js";
import type { NatsAccess } from "./nats-auth.js";
import { seal, unseal } from "./nats-envelope.js";
import { type AgentRecord, MailboxFullError, type RelayStore } from "./store.js";
import {
  type AgentSummary,
  NameTakenError,
  type OnMessage,
  type OnNote,
  type RelayTransport,
  type SendOptions,
  type SendReport,
} from "./transport.js";
import { ring } from "./wake.js";

const PREFIX = "acai.relay";
/** How long `acai agents` and a broadcast wait for agents to answer. */
const WHO_WAIT_MS = 1000;
/** How long a direct message waits for its recipient's acknowledgement. */
const ACK_WAIT_MS = 3000;
/** Bytes accepted on the wire for one message (5,000 characters of UTF-8 and the envelope). */
const MAX_WIRE_BYTES = 64 * 1024;

/** An agent's answer to `who` (and `name.<name>`): its details only when it shares them. */
const agentSummarySchema = z.object({
  name: agentNameSchema,
  listening: z.boolean(),
  sessionId: z.string().max(200).optional(),
  pid: z.number().int().optional(),
  host: z.string().max(300).optional(),
  cwd: z.string().max(4096).optional(),
  startedAt: z.number().optional(),
});
const ackSchema = z.object({ ok: z.boolean(), error: z.string().max(1000).optional() });
/** An agent started; `key` is its ACAI_HOME's (the same key: the same store, nothing to forward). */
const onlineSchema = z.object({ name: agentNameSchema, key: z.string().max(100) });

export interface NatsOptions {
  access: NatsAccess;
  store: RelayStore;
  wakeDir: string;
  identity: RelayIdentity;
  /** Whose messages are taken (`relay.acceptFrom`; default: accept.ts). */
  acceptFrom?: readonly string[];
  /** `who` answers carry pid, host and folder (`relay.shareDetails`). */
  shareDetails?: boolean;
  /** Where a dropped message is said. */
  onNote?: OnNote;
  now?: () => number;
}

export class NatsTransport implements RelayTransport {
  readonly kind = "nats";
  readonly #nc: NatsConnection;
  readonly #options: NatsOptions;
  readonly #local: EmbeddedTransport;
  readonly #now: () => number;
  readonly #subs: Subscription[] = [];
  readonly #accept: AcceptPolicy;
  #self: AgentRecord | undefined;
  #closed = false;

  private constructor(nc: NatsConnection, options: NatsOptions) {
    this.#nc = nc;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#accept = acceptPolicy(options.acceptFrom);
    this.#local = new EmbeddedTransport({
      store: options.store,
      wakeDir: options.wakeDir,
      ...(options.acceptFrom ? { acceptFrom: options.acceptFrom } : {}),
      ...(options.onNote ? { onNote: options.onNote } : {}),
      ...(options.now ? { now: options.now } : {}),
    });
  }

  static async connect(options: NatsOptions): Promise<NatsTransport> {
    const nats = await import("@nats-io/transport-node");
    const { url } = options.access;
    try {
      const nc = await nats.connect({
        servers: url,
        name: "acai",
        timeout: 3000,
        ...connectionAuth(options.access, nats),
      });
      return new NatsTransport(nc, options);
    } catch (error) {
      throw new Error(
        `cannot reach the NATS server ${url} (relay.url in settings): ${(error as Error).message}`,
      );
    }
  }

  async join(self: AgentRecord, onMessage: OnMessage): Promise<void> {
    const holder = await this.#holderOf(self.name);
    if (holder) throw new NameTakenError(holder);
    // This machine's store: the name locally, the messages kept for it, and the inbox.
    await this.#local.join(self, onMessage);
    this.#self = self;
    const json = (value: unknown) => JSON.stringify(value);
    const shown = this.#options.shareDetails
      ? self
      : { name: self.name, listening: self.listening };
    const inbox = `${PREFIX}.to.${self.name}`;
    this.#subs.push(
      this.#nc.subscribe(inbox, {
        callback: (_err, msg) => void msg.respond(json(this.#receive(msg.data, inbox, self.name))),
      }),
      this.#nc.subscribe(`${PREFIX}.name.${self.name}`, {
        callback: (_err, msg) => void msg.respond(json(shown)),
      }),
      this.#nc.subscribe(`${PREFIX}.who`, {
        callback: (_err, msg) => void msg.respond(json(shown)),
      }),
      this.#nc.subscribe(`${PREFIX}.online`, {
        callback: (_err, msg) => void this.#onOnline(msg.data),
      }),
    );
    const key = this.#options.identity.key;
    this.#nc.publish(`${PREFIX}.online`, json({ name: self.name, key }));
    await this.#nc.flush();
  }

  async send(out: Outgoing, options: SendOptions = {}): Promise<SendReport> {
    checkOutgoing(out);
    const now = this.#now();
    if (out.to === BROADCAST) {
      const names = (await this.agents()).map((a) => a.name).filter((n) => n !== out.from);
      const delivered: string[] = [];
      for (const name of names) {
        if ((await this.#deliver(messageFor(out, name, now))) === "delivered") delivered.push(name);
      }
      return { delivered, kept: [] };
    }
    const message = messageFor(out, out.to, now);
    if ((await this.#deliver(message)) === "delivered") return { delivered: [out.to], kept: [] };
    const { store } = this.#options;
    if (!options.allowUnknown && !store.known(out.to)) {
      throw new UnknownAgentError(
        out.to,
        (await this.agents()).map((a) => a.name),
      );
    }
    store.enqueue([message]);
    return { delivered: [], kept: [out.to] };
  }

  async agents(): Promise<AgentSummary[]> {
    const replies = await this.#nc.requestMany(`${PREFIX}.who`, "", {
      strategy: "timer",
      maxWait: WHO_WAIT_MS,
    });
    const agents = new Map<string, AgentSummary>();
    for await (const msg of replies) {
      const record = parseJson(agentSummarySchema, msg.data);
      if (record) agents.set(record.name, record);
    }
    return [...agents.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  settle(id: string): void {
    this.#local.settle(id);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const sub of this.#subs) sub.unsubscribe();
    await this.#nc.close().catch(() => {});
    await this.#local.close();
  }

  /** Sends one copy and waits for the recipient's acknowledgement. */
  async #deliver(message: RelayMessage): Promise<"delivered" | "absent"> {
    try {
      const subject = `${PREFIX}.to.${message.to}`;
      const reply = await this.#nc.request(
        subject,
        seal(message, subject, this.#options.identity),
        {
          timeout: ACK_WAIT_MS,
        },
      );
      const ack = parseJson(ackSchema, reply.data);
      if (ack?.ok) return "delivered";
      if (ack?.error?.startsWith("full:"))
        throw new MailboxFullError(message.to, Number(ack.error.slice(5)) || 0);
      throw new Error(
        `agent ${message.to} did not accept the message: ${ack?.error ?? "bad answer"}`,
      );
    } catch (error) {
      if (isNoResponders(error)) return "absent";
      throw error;
    }
  }

  /**
   * A message from the wire for `self`: checked (signed, for this agent, the
   * name its key's, taken by acceptFrom), stored locally, then acknowledged.
   */
  #receive(data: Uint8Array, subject: string, self: string): { ok: boolean; error?: string } {
    const opened = unseal(parseJson(z.unknown(), data), subject);
    if (!opened.ok || opened.message.to !== self) {
      const why = opened.ok ? "it is addressed to another agent" : opened.why;
      this.#options.onNote?.(`a message over NATS to ${self} was dropped: ${why}`);
      return { ok: false, error: "not accepted: not a signed message for this agent" };
    }
    const { message, key } = opened;
    const refused = this.#refusal(message.from, key);
    if (refused !== undefined) return refused;
    try {
      this.#options.store.enqueue([message]);
    } catch (error) {
      if (error instanceof MailboxFullError) return { ok: false, error: `full:${error.limit}` };
      return { ok: false, error: "could not store it" };
    }
    ring(this.#options.wakeDir, self);
    return { ok: true };
  }

  /** Why a signed message from `name` with `key` is not taken (undefined: it is), said to the user. */
  #refusal(name: string, key: string): { ok: false; error: string } | undefined {
    const ownKey = key === this.#options.identity.key;
    const sender: Sender = {
      via: "nats",
      name,
      ownKey,
      authenticated: this.#options.access.authenticated,
    };
    let accepted = this.#accept(sender);
    // A name is held by the first key whose message with it was taken (this ACAI_HOME's key holds every name).
    if (accepted.ok && !ownKey && this.#heldByOther(name, key)) {
      accepted = {
        ok: false,
        why: `the name ${name} belongs to another key (the one its first message came with)`,
      };
    }
    if (accepted.ok) return undefined;
    this.#options.onNote?.(droppedNote(sender, accepted.why));
    return { ok: false, error: "not accepted by the receiving agent (its relay.acceptFrom)" };
  }

  /** Whether another key holds `name` (pins it to `key` when none does); a store too busy to say: yes. */
  #heldByOther(name: string, key: string): boolean {
    try {
      return this.#options.store.pinPeer(name, key) !== undefined;
    } catch {
      return true;
    }
  }

  /** Another agent started: forward what this store kept for it (another ACAI_HOME's only). */
  async #onOnline(data: Uint8Array): Promise<void> {
    const online = parseJson(onlineSchema, data);
    const self = this.#self;
    if (!online || !self || online.key === this.#options.identity.key || this.#closed) return;
    const { store } = this.#options;
    store.remember(online.name);
    for (const { message } of store.pending(online.name, 0, 100)) {
      try {
        if ((await this.#deliver(message)) === "delivered") store.markDelivered(message.id);
      } catch {
        return; // Its mailbox is full or it went away: kept for the next time.
      }
    }
  }

  async #holderOf(name: string): Promise<AgentSummary | undefined> {
    try {
      const reply = await this.#nc.request(`${PREFIX}.name.${name}`, "", { timeout: 1000 });
      return parseJson(agentSummarySchema, reply.data);
    } catch (error) {
      if (isNoResponders(error) || isTimeout(error)) return undefined;
      throw error;
    }
  }
}

/** The connection options of `access`: its credentials and TLS. */
function connectionAuth(
  access: NatsAccess,
  nats: typeof import("@nats-io/transport-node"),
): Partial<ConnectionOptions> {
  const tls = access.tls ? { tls: { ...access.tls } } : {};
  const { credentials } = access;
  switch (credentials.kind) {
    case "none":
      return tls;
    case "token":
      return { ...tls, token: credentials.token };
    case "user":
      return { ...tls, user: credentials.user, pass: credentials.password };
    case "nkey":
      return { ...tls, authenticator: nats.nkeyAuthenticator(credentials.seed) };
    case "creds":
      return { ...tls, authenticator: nats.credsAuthenticator(credentials.creds) };
    default:
      return credentials satisfies never;
  }
}

function parseJson<T>(schema: z.ZodType<T>, data: Uint8Array): T | undefined {
  if (data.byteLength > MAX_WIRE_BYTES) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(new TextDecoder().decode(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function isNoResponders(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const e = error as Error & { isNoResponders?: () => boolean };
  if (typeof e.isNoResponders === "function" && e.isNoResponders()) return true;
  return error.name === "NoRespondersError" || /no responders/i.test(error.message);
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && /timeout/i.test(`${error.name} ${error.message}`);
}
