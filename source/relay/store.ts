/**
 * The embedded relay store: one SQLite file under `ACAI_HOME/relay/`, shared
 * by every acai on this machine (WAL, busy timeout, file 0600). It holds who
 * runs (`agents`), which names have existed (`names`), and the messages not
 * yet delivered (`messages`). A message leaves the store only when its
 * recipient has handed it to its agent (`markDelivered`): delivery is at least
 * once, and a message for an agent that is not running waits for it within
 * the retention.
 */
import { chmodSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { z } from "zod";
import type { RelayMessage } from "./message.js";
import { checkStoreFiles, currentOwner, type FileOwner } from "./store-files.js";
import {
  type AgentRecord,
  parseAgentRow,
  parseMessageRow,
  QUARANTINE_TABLE,
  rowLabel,
  rowText,
} from "./store-rows.js";

export type { AgentRecord } from "./store-rows.js";

/** How long an undelivered message (and a name that stopped running) is kept: 7 days. */
const DEFAULT_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Undelivered messages one recipient may have waiting; past it sending to it fails. */
const MAX_PENDING_PER_AGENT = 1000;

export interface StoredMessage {
  seq: number;
  message: RelayMessage;
}

export interface RelayStoreOptions {
  /** The folder of the database (`ACAI_HOME/relay`). */
  dir: string;
  now?: () => number;
  retentionMs?: number;
  maxPending?: number;
  /** Whether a process of this machine runs (default: `process.kill(pid, 0)`). */
  isAlive?: (pid: number) => boolean;
  host?: string;
  /** Whom the store's files must belong to (default: this process's user). */
  owner?: FileOwner;
  /** A malformed row was moved to the quarantine table: one line for the user, once per row. */
  onProblem?: (line: string) => void;
}

/** The store's files: none may be writable by another user. */
const STORE_FILES = ["relay.db", "relay.db-wal", "relay.db-shm"];

export function relayDir(acaiHome: string): string {
  return path.join(acaiHome, "relay");
}

export class RelayStore {
  readonly file: string;
  readonly #db: DatabaseSync;
  readonly #now: () => number;
  readonly #retentionMs: number;
  readonly #maxPending: number;
  readonly #isAlive: (pid: number) => boolean;
  readonly #host: string;
  readonly #onProblem: (line: string) => void;

  private constructor(db: DatabaseSync, file: string, options: RelayStoreOptions) {
    this.#db = db;
    this.file = file;
    this.#now = options.now ?? Date.now;
    this.#retentionMs = options.retentionMs ?? DEFAULT_RETENTION_MS;
    this.#maxPending = options.maxPending ?? MAX_PENDING_PER_AGENT;
    this.#isAlive = options.isAlive ?? processIsAlive;
    this.#host = options.host ?? os.hostname();
    this.#onProblem = options.onProblem ?? (() => {});
  }

  /** Opens (creating) the store; `node:sqlite` is loaded here, only by sessions that use the relay. */
  static async open(options: RelayStoreOptions): Promise<RelayStore> {
    const { DatabaseSync } = await import("node:sqlite");
    mkdirSync(options.dir, { recursive: true, mode: 0o700 });
    checkStoreFiles(options.dir, STORE_FILES, options.owner ?? currentOwner());
    const file = path.join(options.dir, "relay.db");
    // The busy timeout from the first statement on (the connection's own schema read included).
    const db = new DatabaseSync(file, { timeout: 5000 });
    try {
      chmodSync(file, 0o600);
      db.exec("PRAGMA journal_mode = WAL");
      db.exec(`
      CREATE TABLE IF NOT EXISTS agents (
        name TEXT PRIMARY KEY, session_id TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
        cwd TEXT NOT NULL, started_at INTEGER NOT NULL, listening INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS names (name TEXT PRIMARY KEY, last_seen INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS messages (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, id TEXT NOT NULL UNIQUE, recipient TEXT NOT NULL,
        sent_at INTEGER NOT NULL, body TEXT NOT NULL);
      CREATE INDEX IF NOT EXISTS messages_recipient ON messages (recipient, seq);
      CREATE TABLE IF NOT EXISTS peers (name TEXT PRIMARY KEY, key TEXT NOT NULL, last_seen INTEGER NOT NULL);
      ${QUARANTINE_TABLE}`);
      const store = new RelayStore(db, file, options);
      store.prune();
      return store;
    } catch (error) {
      // Not left open behind a failed start (the caller may try again).
      db.close();
      throw error;
    }
  }

  /** Takes `agent.name`; when a live agent holds it, returns that one and takes nothing. */
  register(agent: AgentRecord): AgentRecord | undefined {
    return this.#transaction(() => {
      const holder = this.#agent(agent.name);
      if (holder && this.#alive(holder)) return holder;
      this.#db
        .prepare("INSERT OR REPLACE INTO agents VALUES (?, ?, ?, ?, ?, ?, ?)")
        .run(
          agent.name,
          agent.sessionId,
          agent.pid,
          agent.host,
          agent.cwd,
          agent.startedAt,
          agent.listening ? 1 : 0,
        );
      this.#seen(agent.name);
      return undefined;
    });
  }

  /** Gives the name up (only the session that holds it can). */
  unregister(name: string, sessionId: string): void {
    this.#db.prepare("DELETE FROM agents WHERE name = ? AND session_id = ?").run(name, sessionId);
    this.#seen(name);
  }

  /** The agents running now (rows of processes that died are dropped). */
  running(): AgentRecord[] {
    const rows = this.#db.prepare("SELECT rowid, * FROM agents ORDER BY name").all();
    const agents = rows.flatMap((row) => this.#agentOf(row));
    const dead = agents.filter((agent) => !this.#alive(agent));
    for (const agent of dead) {
      this.#db
        .prepare("DELETE FROM agents WHERE name = ? AND session_id = ?")
        .run(agent.name, agent.sessionId);
    }
    return agents.filter((agent) => !dead.includes(agent));
  }

  /** Whether an agent of this name has run here within the retention. */
  known(name: string): boolean {
    return this.#db.prepare("SELECT 1 FROM names WHERE name = ?").get(name) !== undefined;
  }

  /** Notes that an agent of this name runs somewhere (NATS): messages may be kept for it. */
  remember(name: string): void {
    this.#seen(name);
  }

  /** Stores messages (a message already stored, by id, is not stored twice); fails (storing none) when a recipient already has too many waiting. */
  enqueue(messages: readonly RelayMessage[]): void {
    this.#transaction(() => {
      for (const message of messages) {
        const waiting = this.pendingCount(message.to);
        if (waiting >= this.#maxPending) {
          throw new MailboxFullError(message.to, this.#maxPending);
        }
        this.#db
          .prepare(
            "INSERT OR IGNORE INTO messages (id, recipient, sent_at, body) VALUES (?, ?, ?, ?)",
          )
          .run(message.id, message.to, message.sentAt, JSON.stringify(message));
      }
    });
  }

  pendingCount(name: string): number {
    const row = this.#db
      .prepare("SELECT COUNT(*) AS n FROM messages WHERE recipient = ?")
      .get(name);
    return z.object({ n: z.number() }).parse(row).n;
  }

  /**
   * Up to `limit` messages for `name` after `afterSeq`, oldest first. A row that
   * does not parse is moved to the quarantine (and reported): it never holds up the others.
   */
  pending(name: string, afterSeq: number, limit: number): StoredMessage[] {
    const rows = this.#db
      .prepare(
        "SELECT seq, body FROM messages WHERE recipient = ? AND seq > ? ORDER BY seq LIMIT ?",
      )
      .all(name, afterSeq, limit);
    const out: StoredMessage[] = [];
    for (const raw of rows) {
      const parsed = parseMessageRow(raw, name);
      if (parsed.ok) out.push(parsed.value);
      else this.#quarantine("messages", raw, parsed.reason, "seq");
    }
    return out;
  }

  /**
   * Pins `name` to the signing key of its first message over NATS (nats-envelope.ts);
   * returns the key it is pinned to when that is another one (the message claims a name it does not hold).
   */
  pinPeer(name: string, key: string): string | undefined {
    return this.#transaction(() => {
      const row = this.#db.prepare("SELECT key FROM peers WHERE name = ?").get(name);
      const pinned = z.object({ key: z.string() }).safeParse(row);
      if (pinned.success && pinned.data.key !== key) return pinned.data.key;
      this.#db
        .prepare("INSERT OR REPLACE INTO peers (name, key, last_seen) VALUES (?, ?, ?)")
        .run(name, key, this.#now());
      return undefined;
    });
  }

  /** The message reached its agent (or a hook suppressed it): it leaves the store. */
  markDelivered(id: string): void {
    this.#db.prepare("DELETE FROM messages WHERE id = ?").run(id);
  }

  /** Drops messages and names older than the retention. */
  prune(): void {
    const cutoff = this.#now() - this.#retentionMs;
    this.#db.prepare("DELETE FROM messages WHERE sent_at < ?").run(cutoff);
    this.#db.prepare("DELETE FROM names WHERE last_seen < ?").run(cutoff);
    this.#db.prepare("DELETE FROM peers WHERE last_seen < ?").run(cutoff);
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #agent(name: string): AgentRecord | undefined {
    const row = this.#db.prepare("SELECT rowid, * FROM agents WHERE name = ?").get(name);
    return row === undefined ? undefined : this.#agentOf(row)[0];
  }

  /** An agents row as a record; a malformed one is moved to the quarantine (none). */
  #agentOf(raw: unknown): AgentRecord[] {
    const parsed = parseAgentRow(raw);
    if (parsed.ok) return [parsed.value];
    this.#quarantine("agents", raw, parsed.reason, "name");
    return [];
  }

  /** Moves a row that does not parse aside (the quarantine table) and says so, once. */
  #quarantine(table: "agents" | "messages", raw: unknown, reason: string, key: "seq" | "name") {
    const id = table === "agents" ? "rowid" : "seq";
    const value = (raw as Record<string, unknown>)[id];
    this.#db
      .prepare("INSERT INTO quarantine (from_table, reason, row, at) VALUES (?, ?, ?, ?)")
      .run(table, reason, rowText(raw), this.#now());
    if (typeof value === "number")
      this.#db.prepare(`DELETE FROM ${table} WHERE ${id} = ?`).run(value);
    const what = table === "agents" ? "agents row" : "message row";
    this.#onProblem(
      `${this.file}: a malformed ${what} (${rowLabel(raw, key)}) was skipped and moved to its quarantine table: ${reason}`,
    );
  }

  #seen(name: string): void {
    this.#db
      .prepare("INSERT OR REPLACE INTO names (name, last_seen) VALUES (?, ?)")
      .run(name, this.#now());
  }

  #alive(agent: AgentRecord): boolean {
    // Another machine's row (a shared ACAI_HOME): its process cannot be checked from here.
    return agent.host !== this.#host || this.#isAlive(agent.pid);
  }

  #transaction<T>(body: () => T): T {
    this.#db.exec("BEGIN IMMEDIATE");
    try {
      const result = body();
      this.#db.exec("COMMIT");
      return result;
    } catch (error) {
      this.#db.exec("ROLLBACK");
      throw error;
    }
  }
}

export class MailboxFullError extends Error {
  override name = "MailboxFullError";
  constructor(
    readonly recipient: string,
    readonly limit: number,
  ) {
    super(
      `agent ${recipient} already has ${limit} undelivered messages waiting; nothing was sent (it reads them when it runs; try again later)`,
    );
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
