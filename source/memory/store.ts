/**
 * The memory store (docs/memory.md): one SQLite file under ACAI_HOME, opened
 * with Node's built-in `node:sqlite` (no server, no native build), searched
 * with FTS5 (bm25 ranking). Safe for concurrent sessions: WAL journal and a
 * busy timeout; the file is the user's alone (0600, folder 0700).
 *
 * Hostile content is data: every value is bound as a parameter, and a search
 * query is reduced to its words, each quoted for FTS5 (`fts-query.ts`), so
 * FTS syntax from the model cannot fail a search or change its meaning.
 * Sizes are bounded: a memory's length (MAX_MEMORY_CHARS) and the results of
 * one call (MAX_RESULTS).
 */
import { chmodSync, mkdirSync } from "node:fs";
import path from "node:path";
import type { DatabaseSync } from "node:sqlite";
import { whenNotBusy } from "../sqlite/when-not-busy.js";
import { ftsQuery } from "./fts-query.js";

export const MAX_MEMORY_CHARS = 10_000;
const MAX_RESULTS = 50;
/** How long a write waits for another session's lock before failing (ms). */
const BUSY_TIMEOUT_MS = 5000;

export interface Memory {
  id: number;
  content: string;
  /** The project root it belongs to; null: user-wide. */
  project: string | null;
  agentName: string | null;
  sessionId: string | null;
  /** ISO 8601. */
  createdAt: string;
}

/** Which memories a call sees: one project's and the user-wide ones, or all of them. */
export type MemoryView = { kind: "project"; project: string } | { kind: "all" };

export class MemoryError extends Error {
  override readonly name = "MemoryError";
}

export interface NewMemory {
  content: string;
  project: string | null;
  agentName?: string;
  sessionId?: string;
}

type Row = Record<string, unknown>;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS memories (
  id INTEGER PRIMARY KEY,
  content TEXT NOT NULL,
  project TEXT,
  agent_name TEXT,
  session_id TEXT,
  created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS memories_by_project ON memories(project, id);
CREATE VIRTUAL TABLE IF NOT EXISTS memories_fts USING fts5(
  content, content='memories', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER IF NOT EXISTS memories_ai AFTER INSERT ON memories BEGIN
  INSERT INTO memories_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER IF NOT EXISTS memories_ad AFTER DELETE ON memories BEGIN
  INSERT INTO memories_fts(memories_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
`;

function toMemory(row: Row): Memory {
  return {
    id: Number(row.id),
    content: String(row.content),
    project: row.project === null ? null : String(row.project),
    agentName: row.agent_name === null ? null : String(row.agent_name),
    sessionId: row.session_id === null ? null : String(row.session_id),
    createdAt: String(row.created_at),
  };
}

/** `WHERE` text and parameters for a view. */
function viewClause(view: MemoryView, column = "project"): { sql: string; params: string[] } {
  return view.kind === "all"
    ? { sql: "1", params: [] }
    : { sql: `(${column} = ? OR ${column} IS NULL)`, params: [view.project] };
}

function clampLimit(limit: number): number {
  return Math.max(1, Math.min(MAX_RESULTS, Math.floor(limit)));
}

export class MemoryStore {
  private constructor(
    private readonly db: DatabaseSync,
    private readonly now: () => number,
  ) {}

  /**
   * Opens (creating) the store. Throws MemoryError naming the file when it
   * cannot be opened, or when this Node has no `node:sqlite` with FTS5.
   */
  static async open(file: string, now: () => number = Date.now): Promise<MemoryStore> {
    let sqlite: typeof import("node:sqlite");
    try {
      sqlite = await import("node:sqlite");
    } catch {
      throw new MemoryError(
        `acai's memory needs Node's built-in node:sqlite (Node 22.13 or later; this is ${process.version})`,
      );
    }
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      // The busy timeout from the first statement on; a refusal at once is retried.
      const db = new sqlite.DatabaseSync(file, { timeout: BUSY_TIMEOUT_MS });
      try {
        chmodSync(file, 0o600);
        await whenNotBusy(async () => {
          db.exec("PRAGMA journal_mode = WAL");
          db.exec(SCHEMA);
        });
      } catch (error) {
        db.close();
        throw error;
      }
      return new MemoryStore(db, now);
    } catch (error) {
      throw new MemoryError(`cannot open the memory file ${file}: ${(error as Error).message}`);
    }
  }

  save(memory: NewMemory): Memory {
    const content = memory.content.trim();
    if (content === "") throw new MemoryError("nothing to save: the memory is empty");
    if (content.length > MAX_MEMORY_CHARS) {
      throw new MemoryError(
        `a memory holds at most ${MAX_MEMORY_CHARS} characters (this one has ${content.length}); save a shorter summary`,
      );
    }
    const createdAt = new Date(this.now()).toISOString();
    const result = this.db
      .prepare(
        "INSERT INTO memories (content, project, agent_name, session_id, created_at) VALUES (?, ?, ?, ?, ?)",
      )
      .run(content, memory.project, memory.agentName ?? null, memory.sessionId ?? null, createdAt);
    return {
      id: Number(result.lastInsertRowid),
      content,
      project: memory.project,
      agentName: memory.agentName ?? null,
      sessionId: memory.sessionId ?? null,
      createdAt,
    };
  }

  /** The memories matching `query` best first (bm25); none for a query without words. */
  search(query: string, view: MemoryView, limit = 10): Memory[] {
    const match = ftsQuery(query);
    if (match === undefined) return [];
    const where = viewClause(view, "m.project");
    const rows = this.db
      .prepare(
        `SELECT m.* FROM memories_fts f JOIN memories m ON m.id = f.rowid
         WHERE memories_fts MATCH ? AND ${where.sql}
         ORDER BY bm25(memories_fts), m.id DESC LIMIT ?`,
      )
      .all(match, ...where.params, clampLimit(limit)) as Row[];
    return rows.map(toMemory);
  }

  /** The most recent memories first. */
  list(view: MemoryView, limit = 20): Memory[] {
    const n = clampLimit(limit);
    if (view.kind === "all") {
      const rows = this.db
        .prepare("SELECT * FROM memories ORDER BY id DESC LIMIT ?")
        .all(n) as Row[];
      return rows.map(toMemory);
    }
    // The project's newest and the shared newest, each read backwards along
    // memories_by_project (project, id), then merged: an `OR` of the two
    // made SQLite sort every memory of the view first.
    const rows = this.db
      .prepare(
        `SELECT * FROM (
           SELECT * FROM (SELECT * FROM memories WHERE project = ? ORDER BY id DESC LIMIT ?)
           UNION ALL
           SELECT * FROM (SELECT * FROM memories WHERE project IS NULL ORDER BY id DESC LIMIT ?)
         ) ORDER BY id DESC LIMIT ?`,
      )
      .all(view.project, n, n, n) as Row[];
    return rows.map(toMemory);
  }

  /** Every memory of the view, oldest first (for export; not capped). */
  *all(view: MemoryView): Generator<Memory> {
    const where = viewClause(view);
    const statement = this.db.prepare(`SELECT * FROM memories WHERE ${where.sql} ORDER BY id`);
    for (const row of statement.iterate(...where.params)) yield toMemory(row as Row);
  }

  /** Deletes one memory the view can see; false when there is none. */
  forget(id: number, view: MemoryView): boolean {
    const where = viewClause(view);
    const result = this.db
      .prepare(`DELETE FROM memories WHERE id = ? AND ${where.sql}`)
      .run(id, ...where.params);
    return Number(result.changes) > 0;
  }

  count(view: MemoryView): number {
    const where = viewClause(view);
    const row = this.db
      .prepare(`SELECT count(*) AS n FROM memories WHERE ${where.sql}`)
      .get(...where.params) as Row;
    return Number(row.n);
  }

  /** Runs `work` in one transaction (bulk saves: the benchmark's 100,000 memories). */
  transaction<T>(work: () => T): T {
    this.db.exec("BEGIN IMMEDIATE");
    try {
      const result = work();
      this.db.exec("COMMIT");
      return result;
    } catch (error) {
      this.db.exec("ROLLBACK");
      throw error;
    }
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
