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
 */
import type { NatsConnection, Subscription } from "@nats-io/transport-node";
import { z } from "zod";
import { EmbeddedTransport, UnknownAgentError } from "./embedded.js";
import {
  BROADCAST,
  checkOutgoing,
  messageFor,
  type Outgoing,
  type RelayMessage,
  relayMessageSchema,
} from "./message.js";
import { agentNameSchema } from "./names.js";
import { type AgentRecord, MailboxFullError, type RelayStore } from "./store.js";
import {
  NameTakenError,
  type OnMessage,
  type RelayTransport,
  type SendOptions,
  type SendReport,
} from "./transport.js";
import { ring } from "./wake.js";

const PREFIX = "acai.relay";
/** How long `acai agents` and a broadcast wait for agents to answer. */
export const WHO_WAIT_MS = 1000;
/** How long a direct message waits for its recipient's acknowledgement. */
export const ACK_WAIT_MS = 3000;
/** Bytes accepted on the wire for one message (5,000 characters of UTF-8 and the envelope). */
const MAX_WIRE_BYTES = 64 * 1024;

const agentRecordSchema = z.object({
  name: agentNameSchema,
  sessionId: z.string().max(200),
  pid: z.number().int(),
  host: z.string().max(300),
  cwd: z.string().max(4096),
  startedAt: z.number(),
  listening: z.boolean(),
});
const ackSchema = z.object({ ok: z.boolean(), error: z.string().max(1000).optional() });
const onlineSchema = z.object({ name: agentNameSchema, host: z.string().max(300) });

export interface NatsOptions {
  url: string;
  store: RelayStore;
  wakeDir: string;
  now?: () => number;
  host?: string;
}

export class NatsTransport implements RelayTransport {
  readonly kind = "nats";
  readonly #nc: NatsConnection;
  readonly #options: NatsOptions;
  readonly #local: EmbeddedTransport;
  readonly #now: () => number;
  readonly #subs: Subscription[] = [];
  #self: AgentRecord | undefined;
  #closed = false;

  private constructor(nc: NatsConnection, options: NatsOptions) {
    this.#nc = nc;
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#local = new EmbeddedTransport({
      store: options.store,
      wakeDir: options.wakeDir,
      ...(options.now ? { now: options.now } : {}),
    });
  }

  static async connect(options: NatsOptions): Promise<NatsTransport> {
    const { connect } = await import("@nats-io/transport-node");
    try {
      const nc = await connect({ servers: options.url, name: "acai", timeout: 3000 });
      return new NatsTransport(nc, options);
    } catch (error) {
      throw new Error(
        `cannot reach the NATS server ${options.url} (relay.url in settings): ${(error as Error).message}`,
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
    this.#subs.push(
      this.#nc.subscribe(`${PREFIX}.to.${self.name}`, {
        callback: (_err, msg) => void msg.respond(json(this.#receive(msg.data, self.name))),
      }),
      this.#nc.subscribe(`${PREFIX}.name.${self.name}`, {
        callback: (_err, msg) => void msg.respond(json(self)),
      }),
      this.#nc.subscribe(`${PREFIX}.who`, {
        callback: (_err, msg) => void msg.respond(json(self)),
      }),
      this.#nc.subscribe(`${PREFIX}.online`, {
        callback: (_err, msg) => void this.#onOnline(msg.data),
      }),
    );
    this.#nc.publish(`${PREFIX}.online`, json({ name: self.name, host: self.host }));
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

  async agents(): Promise<AgentRecord[]> {
    const replies = await this.#nc.requestMany(`${PREFIX}.who`, "", {
      strategy: "timer",
      maxWait: WHO_WAIT_MS,
    });
    const agents = new Map<string, AgentRecord>();
    for await (const msg of replies) {
      const record = parseJson(agentRecordSchema, msg.data);
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
      const reply = await this.#nc.request(`${PREFIX}.to.${message.to}`, JSON.stringify(message), {
        timeout: ACK_WAIT_MS,
      });
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

  /** A message from the wire for `self`: stored locally, then acknowledged. */
  #receive(data: Uint8Array, self: string): { ok: boolean; error?: string } {
    const message = parseJson(relayMessageSchema, data);
    if (!message || message.to !== self)
      return { ok: false, error: "not a message for this agent" };
    try {
      this.#options.store.enqueue([message]);
    } catch (error) {
      if (error instanceof MailboxFullError) return { ok: false, error: `full:${error.limit}` };
      return { ok: false, error: "could not store it" };
    }
    ring(this.#options.wakeDir, self);
    return { ok: true };
  }

  /** Another agent started: forward what this machine kept for it (another machine's only). */
  async #onOnline(data: Uint8Array): Promise<void> {
    const online = parseJson(onlineSchema, data);
    const self = this.#self;
    if (!online || !self || online.host === self.host || this.#closed) return;
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

  async #holderOf(name: string): Promise<AgentRecord | undefined> {
    try {
      const reply = await this.#nc.request(`${PREFIX}.name.${name}`, "", { timeout: 1000 });
      return parseJson(agentRecordSchema, reply.data);
    } catch (error) {
      if (isNoResponders(error) || isTimeout(error)) return undefined;
      throw error;
    }
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
