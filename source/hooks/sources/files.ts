import { createHash } from "node:crypto";
import type { Dirent, Stats } from "node:fs";
import { readdir, readFile, readlink, realpath, stat } from "node:fs/promises";
import path from "node:path";

/** A regular file as seen by a scan: identity for the metadata cache and the trust fingerprint. */
export interface ScannedFile {
  path: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  executable: boolean;
}

export function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

export function isExecutableMode(stats: Stats): boolean {
  return (stats.mode & 0o111) !== 0;
}

/** Directory entries sorted by name; an absent or unreadable directory is empty. */
export async function listDir(dir: string): Promise<Dirent[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** `stat` that follows symlinks and returns undefined for anything missing or dangling. */
export async function statOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await stat(file);
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
  const content = await readFile(file);
  return {
    path: file,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    sha256: sha256(content),
    executable: isExecutableMode(stats),
  };
}

/** One line of the project fingerprint: what a file is, never where the checkout lives. */
export interface FingerprintPart {
  /** Relative to the project dir, `/`-separated. */
  key: string;
  value: string;
}

export const MAX_FINGERPRINT_FILES = 10_000;

/**
 * Every file below `dir` (symlinks recorded by target and, for files, content;
 * symlinked folders are not followed), as fingerprint parts. The executable
 * bit is part of a file's identity: `chmod +x` can turn a file into a hook.
 */
export async function fingerprintTree(
  dir: string,
  projectDir: string,
  parts: FingerprintPart[],
  budget: { files: number },
): Promise<void> {
  for (const entry of await listDir(dir)) {
    const full = path.join(dir, entry.name);
    const key = path.relative(projectDir, full).split(path.sep).join("/");
    if (budget.files <= 0) return;
    budget.files -= 1;
    if (entry.isDirectory()) {
      await fingerprintTree(full, projectDir, parts, budget);
    } else if (entry.isSymbolicLink()) {
      const target = await readlink(full).catch(() => "?");
      const stats = await statOrUndefined(full);
      const content =
        stats?.isFile() === true
          ? (await scanFile(full, stats).catch(() => undefined))?.sha256
          : "";
      parts.push({
        key,
        value: `link ${target} ${stats && isExecutableMode(stats) ? "x" : "-"} ${content ?? "?"}`,
      });
    } else if (entry.isFile()) {
      const stats = await statOrUndefined(full);
      if (stats === undefined) continue;
      const scanned = await scanFile(full, stats).catch(() => undefined);
      parts.push({
        key,
        value: `file ${scanned?.executable ? "x" : "-"} ${scanned?.sha256 ?? "unreadable"}`,
      });
    }
  }
}

export function fingerprintOf(parts: readonly FingerprintPart[]): string {
  const sorted = [...parts].sort((a, b) =>
    a.key < b.key ? -1 : a.key > b.key ? 1 : a.value < b.value ? -1 : 1,
  );
  const hash = createHash("sha256");
  for (const part of sorted) hash.update(`${JSON.stringify(part.key)} ${part.value}\n`);
  return hash.digest("hex");
}
