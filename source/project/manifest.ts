/**
 * Everything a project controls that acai would apply or run, as a list of
 * entries (a `/`-separated key and a digest of what is there). Trust is
 * recorded as this list, so a change shows as added, removed or edited
 * entries, and its hash is the project's fingerprint.
 *
 * What is covered: every file under the project's hook and tool folders,
 * following symbolic links (a linked folder or file is hashed where it points,
 * inside the project or not, under the key of the link); the project settings
 * files as a whole; interpreters named by a `#!` line of those files when they
 * are a path inside the project (not a name looked up on PATH, not a system
 * interpreter such as /bin/sh); files a project settings
 * command names by path; files trusted configuration makes acai run or load
 * (project/pins.ts: MCP server scripts inside the project, `replay:` files),
 * hashed even when missing (a file that appears later revokes trust) and
 * whole folders when a folder is named. A named file that is a link is
 * recorded as the link (its text) and what it points at (`key@`). A set that
 * cannot be hashed completely (too many files, a file too large, an
 * unreadable file, a FIFO or device where a file is named) is marked
 * incomplete and can never be trusted: no placeholder is ever hashed in
 * place of content.
 */

import { createHash } from "node:crypto";
import { type Dirent, lstatSync, readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import path from "node:path";
import { formatBytes, readRegularFileSync } from "../config/read-regular-file.js";
import type { PinnedFile } from "./pins.js";
import { interpreterPath } from "./shebang.js";

export interface ManifestEntry {
  /** Relative to the project root, `/`-separated (`interpreter:/abs` outside it). */
  key: string;
  /** What is there: `file x <sha256>`, `link <target>`, `settings <sha256>`, … */
  digest: string;
}

export interface ProjectManifest {
  entries: ManifestEntry[];
  /** sha256 of the entries; null when the project controls nothing acai uses. */
  fingerprint: string | null;
  /** Why the set cannot be hashed completely (names the limit and the folder); then it cannot be trusted. */
  incomplete?: string;
}

interface ManifestLimits {
  maxFiles: number;
  maxFileBytes: number;
  maxTotalBytes: number;
}

const DEFAULT_MANIFEST_LIMITS: ManifestLimits = {
  maxFiles: 10_000,
  maxFileBytes: 16 * 1024 * 1024,
  maxTotalBytes: 256 * 1024 * 1024,
};

export interface ManifestInput {
  projectDir: string;
  /** Folders whose every file is project code: the project's hook and tool folders. */
  trees: readonly string[];
  /** The project settings files that exist, with a digest of their whole text (read here when absent). */
  settingsFiles: readonly { path: string; digest?: string }[];
  /** Absolute paths a project settings command names (hashed when they are files). */
  commandPaths: readonly string[];
  /** Files trusted configuration makes acai run or load (project/pins.ts). */
  pinned?: readonly PinnedFile[];
  limits?: ManifestLimits;
}

interface Walk {
  projectDir: string;
  limits: ManifestLimits;
  entries: ManifestEntry[];
  files: number;
  bytes: number;
  incomplete?: string;
  /** Files with a `#!` line: their interpreters are part of the set. */
  scripts: { file: string; firstLine: string }[];
}

export function buildProjectManifest(input: ManifestInput): ProjectManifest {
  const walk: Walk = {
    projectDir: path.resolve(input.projectDir),
    limits: input.limits ?? DEFAULT_MANIFEST_LIMITS,
    entries: [],
    files: 0,
    bytes: 0,
    scripts: [],
  };
  for (const tree of input.trees) walkTree(walk, tree, keyOf(walk, tree), tree, new Set());
  for (const file of input.settingsFiles) {
    const key = linkAware(walk, file.path, keyOf(walk, file.path));
    if (file.digest === undefined) hashFile(walk, file.path, key, path.dirname(file.path));
    else walk.entries.push({ key, digest: `settings ${file.digest}` });
  }
  for (const file of input.commandPaths) addNamedFile(walk, file, "script");
  for (const pin of input.pinned ?? []) addPinnedFile(walk, pin);
  addInterpreters(walk);
  const entries = dedupe(walk.entries);
  return {
    entries,
    fingerprint: entries.length === 0 ? null : fingerprintOf(entries),
    ...(walk.incomplete !== undefined ? { incomplete: walk.incomplete } : {}),
  };
}

/** The hash of the sorted entries: what the project is, never where the checkout lives. */
function fingerprintOf(entries: readonly ManifestEntry[]): string {
  const hash = createHash("sha256");
  for (const entry of entries) hash.update(`${JSON.stringify(entry.key)} ${entry.digest}\n`);
  return hash.digest("hex");
}

function sha256(data: Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function keyOf(walk: Walk, file: string): string {
  const relative = path.relative(walk.projectDir, file);
  if (relative === "" || relative.startsWith("..") || path.isAbsolute(relative)) return file;
  return relative.split(path.sep).join("/");
}

/** One directory level; `key` is where the user sees it (through links), `real` the chain of folders entered. */
function walkTree(walk: Walk, dir: string, key: string, root: string, chain: Set<string>): void {
  const real = realpathOr(dir);
  if (chain.has(real)) {
    walk.entries.push({ key, digest: "link-cycle" });
    return;
  }
  const inner = new Set(chain).add(real);
  for (const entry of listSorted(dir)) {
    if (walk.incomplete !== undefined) return;
    if (!count(walk, root)) return;
    const full = path.join(dir, entry.name);
    walkEntry(walk, full, `${key}/${entry.name}`, entry, root, inner);
  }
}

function walkEntry(
  walk: Walk,
  full: string,
  key: string,
  entry: Dirent,
  root: string,
  chain: Set<string>,
): void {
  if (entry.isSymbolicLink()) {
    walk.entries.push({ key, digest: `link ${readlinkOr(full)}` });
    const target = statOr(full);
    if (target === undefined) return; // dangling: the link text above is all there is
    if (target.isDirectory()) walkTree(walk, full, key, root, chain);
    else hashFile(walk, full, `${key}@`, root);
    return;
  }
  if (entry.isDirectory()) walkTree(walk, full, key, root, chain);
  else if (entry.isFile()) hashFile(walk, full, key, root);
  else walk.entries.push({ key, digest: "special" });
}

/** Counts one more entry; false (and incomplete) past the file limit. */
function count(walk: Walk, root: string): boolean {
  walk.files += 1;
  if (walk.files <= walk.limits.maxFiles) return true;
  walk.incomplete = `more than ${walk.limits.maxFiles.toLocaleString("en-US")} files under ${root} (the trust limit): remove files from that folder, or run with --no-project`;
  return false;
}

function hashFile(walk: Walk, file: string, key: string, root: string): void {
  const read = readRegularFileSync(file, walk.limits.maxFileBytes);
  if (!read.ok) {
    if (read.problem === "missing") walk.entries.push({ key, digest: "missing" });
    else if (read.problem === "not-regular") walk.entries.push({ key, digest: "special" });
    else walk.incomplete = `${file} cannot be hashed: ${read.reason} (under ${root})`;
    return;
  }
  walk.bytes += read.data.length;
  if (walk.bytes > walk.limits.maxTotalBytes) {
    walk.incomplete = `the project's hooks, tools and settings are larger than ${formatBytes(walk.limits.maxTotalBytes)} (the trust limit), reached at ${file}`;
    return;
  }
  const executable = (read.stats.mode & 0o111) !== 0;
  walk.entries.push({ key, digest: `file ${executable ? "x" : "-"} ${sha256(read.data)}` });
  if (read.data[0] === 0x23 && read.data[1] === 0x21) {
    const end = read.data.indexOf(0x0a);
    const firstLine = read.data.subarray(0, end === -1 ? Math.min(read.data.length, 512) : end);
    walk.scripts.push({ file, firstLine: firstLine.toString("utf8") });
  }
}

/**
 * A file named from outside the trees (an interpreter, a script in a
 * command): hashed if it is a file; a FIFO or device there cannot be hashed.
 */
function addNamedFile(walk: Walk, file: string, kind: "script" | "interpreter"): void {
  const stats = statOr(file);
  if (stats === undefined || stats.isDirectory()) return;
  const key = `${kind}:${keyOf(walk, file)}`;
  if (walk.entries.some((entry) => entry.key === key || entry.key === `${key}@`)) return;
  if (!stats.isFile()) {
    walk.incomplete = `${file} (named by a project command) ${unhashable(file)}`;
    return;
  }
  hashFile(walk, file, linkAware(walk, file, key), path.dirname(file));
}

/**
 * A file trusted configuration runs or loads: pinned whatever is there — its
 * content, `missing` (so one that appears later revokes trust), or a whole
 * folder; anything else (a FIFO, a device) makes the set incomplete.
 */
function addPinnedFile(walk: Walk, pin: PinnedFile): void {
  const key = `${pin.kind}:${keyOf(walk, pin.file)}`;
  if (walk.entries.some((entry) => entry.key === key || entry.key === `${key}@`)) return;
  const contentKey = linkAware(walk, pin.file, key);
  const stats = statOr(pin.file);
  if (stats === undefined) walk.entries.push({ key: contentKey, digest: "missing" });
  else if (stats.isDirectory()) walkTree(walk, pin.file, contentKey, pin.file, new Set());
  else if (stats.isFile()) hashFile(walk, pin.file, contentKey, path.dirname(pin.file));
  else walk.incomplete = `${pin.file} (${PIN_WORDS[pin.kind]}) ${unhashable(pin.file)}`;
}

const PIN_WORDS: Record<PinnedFile["kind"], string> = {
  "mcp-server": "run by a project MCP server",
  replay: "a replay file the project's model setting names",
};

function unhashable(file: string): string {
  const stats = statOr(file);
  const what = stats?.isFIFO()
    ? "a FIFO"
    : stats?.isSocket()
      ? "a socket"
      : stats?.isCharacterDevice() || stats?.isBlockDevice()
        ? "a device"
        : "not a regular file";
  return `is ${what}, so it cannot be hashed: make it a regular file or remove it`;
}

/**
 * A named file that is a symbolic link: the link itself is an entry (its
 * text), and the content is hashed under `key@`, as in the trees.
 */
function linkAware(walk: Walk, file: string, key: string): string {
  let isLink = false;
  try {
    isLink = lstatSync(file).isSymbolicLink();
  } catch {
    return key;
  }
  if (!isLink) return key;
  walk.entries.push({ key, digest: `link ${readlinkOr(file)}` });
  return `${key}@`;
}

/** Interpreters of hashed scripts, and theirs in turn (a few levels: the kernel allows four). */
function addInterpreters(walk: Walk): void {
  const seen = new Set<string>();
  for (let round = 0; round < 4 && walk.scripts.length > 0; round++) {
    const scripts = walk.scripts;
    walk.scripts = [];
    for (const script of scripts) {
      const interpreter = interpreterPath(script.firstLine, walk.projectDir);
      // System interpreters (/bin/sh) are the user's: hashing them would revoke trust on every upgrade.
      if (interpreter === undefined || seen.has(interpreter) || !isInside(walk, interpreter))
        continue;
      seen.add(interpreter);
      addNamedFile(walk, interpreter, "interpreter");
    }
  }
}

function isInside(walk: Walk, file: string): boolean {
  const relative = path.relative(walk.projectDir, file);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

function dedupe(entries: ManifestEntry[]): ManifestEntry[] {
  const byKey = new Map<string, ManifestEntry>();
  for (const entry of entries) byKey.set(entry.key, entry);
  return [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function listSorted(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  } catch {
    return [];
  }
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function readlinkOr(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return "?";
  }
}

function statOr(file: string) {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}
