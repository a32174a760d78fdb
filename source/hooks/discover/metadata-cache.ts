import { randomBytes } from "node:crypto";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { MAX_JSON_DEPTH, valueTooDeep } from "../../config/json-depth.js";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../config/private-files.js";
import { PARSED_ONCE } from "../../shared/parsed-once.js";

/**
 * Describe results of executable hooks, in `<ACAI_HOME>/cache/hook-metadata.json`.
 * An entry is used only when path, size, mtime and sha256 of the file all
 * match, so a warm start spawns nothing and any edit re-describes. Failed
 * describes are kept too (with their reason): a hook that hangs would
 * otherwise cost the describe timeout on every start.
 */
export interface FileIdentity {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
}

const CacheEntrySchema = z.lazy(() =>
  z.object({
    size: z.number(),
    mtimeMs: z.number(),
    sha256: z.string(),
    /** Raw describe output (validated again on every load). */
    metadata: z.unknown().optional(),
    /** Set when describe failed (crash, timeout, not JSON): why; `metadata` is then absent. */
    failure: z.string().optional(),
    describedAt: z.number(),
  }),
);
type CacheEntry = z.infer<typeof CacheEntrySchema>;

export type CachedDescribe = { ok: true; metadata: unknown } | { ok: false; reason: string };

/**
 * The file's outer shape; each entry is validated when a lookup reads it (the cache
 * is shared by every project: a start reads the few entries of its own hooks).
 */
const CacheFileSchema = z.lazy(() =>
  z.object({
    version: z.literal(1),
    entries: z.custom<Record<string, unknown>>(
      (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    ),
  }),
);

/** Oldest entries are dropped past this many (the cache is shared by all projects). */
const MAX_ENTRIES = 2000;

export function metadataCachePath(acaiHome: string): string {
  return path.join(acaiHome, "cache", "hook-metadata.json");
}

/** An entry as read, valid or not: validated at its first lookup. */
function validEntry(raw: unknown): CacheEntry | undefined {
  const parsed = CacheEntrySchema.safeParse(raw, PARSED_ONCE);
  // Validating metadata recurses: an entry nested too deep (written before the check) is dropped.
  if (!parsed.success || valueTooDeep(parsed.data.metadata, MAX_JSON_DEPTH)) return undefined;
  return parsed.data;
}

export class MetadataCache {
  private dirty = false;
  /** Entries validated (or stored) in this process; an invalid one read from the file is dropped. */
  private readonly entries = new Map<string, CacheEntry>();

  private constructor(
    private readonly file: string,
    /** The file's entries not looked up yet, as read. */
    private readonly unread: Map<string, unknown>,
  ) {}

  /** A missing, unreadable or corrupt cache is an empty cache (it is only a cache). */
  static async load(acaiHome: string): Promise<MetadataCache> {
    const file = metadataCachePath(acaiHome);
    const unread = new Map<string, unknown>();
    try {
      const parsed = CacheFileSchema.safeParse(
        JSON.parse(await readFile(file, "utf8")),
        PARSED_ONCE,
      );
      if (parsed.success)
        for (const [key, raw] of Object.entries(parsed.data.entries)) unread.set(key, raw);
    } catch {
      // absent or corrupt: start empty
    }
    return new MetadataCache(file, unread);
  }

  /** The entry for a path, validated the first time it is read. */
  private entryOf(key: string): CacheEntry | undefined {
    if (this.unread.has(key)) {
      const entry = validEntry(this.unread.get(key));
      this.unread.delete(key);
      if (entry !== undefined) this.entries.set(key, entry);
    }
    return this.entries.get(key);
  }

  /** The cached describe result (output or failure) for exactly this file content, if any. */
  lookup(identity: FileIdentity): CachedDescribe | undefined {
    const entry = this.entryOf(identity.path);
    if (
      entry === undefined ||
      entry.size !== identity.size ||
      entry.mtimeMs !== identity.mtimeMs ||
      entry.sha256 !== identity.sha256
    ) {
      return undefined;
    }
    if (entry.failure !== undefined) return { ok: false, reason: entry.failure };
    return { ok: true, metadata: entry.metadata };
  }

  /** The cached describe output for exactly this file content, if it described successfully. */
  get(identity: FileIdentity): { metadata: unknown } | undefined {
    const cached = this.lookup(identity);
    return cached?.ok ? { metadata: cached.metadata } : undefined;
  }

  set(identity: FileIdentity, metadata: unknown, now: number): void {
    this.store(identity, { metadata, describedAt: now });
  }

  /** Remembers that describe failed for this exact content, and why. */
  setFailure(identity: FileIdentity, reason: string, now: number): void {
    this.store(identity, { metadata: undefined, failure: reason, describedAt: now });
  }

  private store(
    identity: FileIdentity,
    result: Pick<CacheEntry, "metadata" | "failure" | "describedAt">,
  ): void {
    this.unread.delete(identity.path);
    this.entries.set(identity.path, {
      size: identity.size,
      mtimeMs: identity.mtimeMs,
      sha256: identity.sha256,
      ...result,
    });
    this.dirty = true;
  }

  /** Writes atomically (temp file + rename) when something changed. */
  async save(): Promise<void> {
    if (!this.dirty) return;
    // Entries never looked up are kept as read (the next lookup validates them).
    let entries: [string, unknown][] = [...this.unread, ...this.entries];
    if (entries.length > MAX_ENTRIES) {
      entries = entries.sort((a, b) => describedAt(b[1]) - describedAt(a[1])).slice(0, MAX_ENTRIES);
    }
    const body = `${JSON.stringify({ version: 1, entries: Object.fromEntries(entries) })}\n`;
    await ensurePrivateDir(path.dirname(this.file));
    const temp = `${this.file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    try {
      await writeFile(temp, body, { encoding: "utf8", mode: PRIVATE_FILE_MODE });
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    this.dirty = false;
  }
}

/** When an entry (validated or as read) was described; 0 when it does not say. */
function describedAt(entry: unknown): number {
  const at = (entry as { describedAt?: unknown } | null)?.describedAt;
  return typeof at === "number" && Number.isFinite(at) ? at : 0;
}
