import { createHash } from "node:crypto";
import { type Dirent, readdirSync, readFileSync, type Stats, statSync } from "node:fs";
import { realpath } from "node:fs/promises";
import path from "node:path";

/** A regular file as seen by a scan: identity for the metadata cache and the trust fingerprint. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  executable: boolean;
}

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function isExecutableMode(stats: Stats): boolean {
  return (stats.mode & 0o111) !== 0;
}

/*
 * Hook folders hold a few small files, read once at start-up. Synchronous
 * reads here are several times faster than the async API, whose open, stat,
 * read and close each take a thread-pool round trip (the start-up benchmark
 * with 100 hooks showed it). The functions stay async for their callers.
 */

/** Directory entries sorted by name; an absent or unreadable directory is empty. */
export async function listDir(dir: string): Promise<Dirent[]> {
  try {
    const entries = readdirSync(dir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** `stat` that follows symlinks and returns undefined for anything missing or dangling. */
export async function statOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

export async function realpathOrSelf(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

export async function scanFile(file: string, stats: Stats): Promise<ScannedFile> {
  const content = readFileSync(file);
  return {
    path: file,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    sha256: sha256(content),
    executable: isExecutableMode(stats),
  };
}

/**
 * File-system reads of one scan, each done once: the same hook folder is
 * listed by several sources and every project hook file is both a candidate
 * and part of the fingerprint.
 */
export class ScanReader {
  private readonly lists = new Map<string, Promise<Dirent[]>>();
  private readonly stats = new Map<string, Promise<Stats | undefined>>();
  private readonly scans = new Map<string, Promise<ScannedFile | undefined>>();

  list(dir: string): Promise<Dirent[]> {
    let result = this.lists.get(dir);
    if (result === undefined) {
      result = listDir(dir);
      this.lists.set(dir, result);
    }
    return result;
  }

  stat(file: string): Promise<Stats | undefined> {
    let result = this.stats.get(file);
    if (result === undefined) {
      result = statOrUndefined(file);
      this.stats.set(file, result);
    }
    return result;
  }

  /** Content hash and identity of a regular file (symlinks followed); undefined when unreadable. */
  scan(file: string): Promise<ScannedFile | undefined> {
    let result = this.scans.get(file);
    if (result === undefined) {
      result = this.stat(file).then((stats) =>
        stats?.isFile() ? scanFile(file, stats).catch(() => undefined) : undefined,
      );
      this.scans.set(file, result);
    }
    return result;
  }
}
