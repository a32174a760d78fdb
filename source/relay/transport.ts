/**
 * What a relay transport does, whichever it is: the embedded store on this
 * machine (embedded.ts) or a NATS server for several machines (nats.ts).
 */
import { type Outgoing, RelayError, type RelayMessage } from "./message.js";
import type { AgentRecord } from "./store.js";

export interface SendReport {
  /** Recipients running now: the message is on its way to them. */
  delivered: string[];
  /** Recipients not running: the message is kept for them (retention) and delivered when one starts. */
  kept: string[];
}

export interface SendOptions {
  /** Keep a message for a name that has never run here (default: refuse, naming the running agents). */
  allowUnknown?: boolean;
}

/**
 * An agent as another agent sees it: its name and mode; its session, pid, host
 * and folder only where they are shared (the embedded store, or NATS with
 * `relay.shareDetails`).
 */
export type AgentSummary = Pick<AgentRecord, "name" | "listening"> &
  Partial<Omit<AgentRecord, "name" | "listening">>;

/** A line for the user (a dropped message, a malformed row moved aside); never for the model. */
export type OnNote = (line: string) => void;

/** Receives this agent's messages, oldest first. Each must be `settle`d once handed over. */
export type OnMessage = (message: RelayMessage) => void;

export interface RelayTransport {
  readonly kind: "embedded" | "nats";
  /** Takes the name (NameTakenError when a running agent holds it) and starts receiving. */
  join(self: AgentRecord, onMessage: OnMessage): Promise<void>;
  send(out: Outgoing, options?: SendOptions): Promise<SendReport>;
  /** The agents running now. */
  agents(): Promise<AgentSummary[]>;
  /** The message reached the agent, or a hook suppressed it: it will not come again. */
  settle(id: string): void;
  /** Gives the name up and stops receiving; unsettled messages stay for the next agent of the name. */
  close(): Promise<void>;
}

export class NameTakenError extends RelayError {
  override name = "NameTakenError";
  constructor(readonly holder: AgentSummary) {
    const where =
      holder.pid !== undefined && holder.host !== undefined && holder.cwd !== undefined
        ? ` (pid ${holder.pid} on ${holder.host}, in ${holder.cwd})`
        : "";
    super(`an agent named ${holder.name} is already running${where}; choose another with --name`);
  }
}
