/**
 * A hook file that changed since the session loaded it is not run (hooks.md
 * §7a, docs/hooks.md "A hook that changed is not run"). When the registry is
 * loaded, each file whose code a hook runs (hook-files.ts) is recorded: its
 * content hash and its size, mtime, ctime and inode. Before each run — a
 * spawn, a persistent hook's request (and so each (re)start), a plugin call
 * (and so each restart of its worker) — the file is `stat`ed; only when that
 * differs is it read and hashed again. A different hash, a file gone, or one
 * that appeared where none was, is a change: the hook is not run and counts
 * as failed, with its failure policy (a guard with `failure: "closed"` still
 * blocks).
 *
 * A project file's expected hash is the one trust recorded (the manifest
 * entry), so a file edited between the trust check and the load is caught
 * as well.
 */
import { createHash } from "node:crypto";
import { type Stats, statSync } from "node:fs";
import path from "node:path";
import { readRegularFileSync } from "../../config/read-regular-file.js";
import type { HookDefinition } from "../contract/definition.js";
import { envInterpreterOfFile } from "./env-shebang.js";
import { type HookFileRoots, hookFiles } from "./hook-files.js";

/** The largest hook file that is hashed (a larger one cannot be checked: it counts as changed). */
const MAX_HASHED_BYTES = 16 * 1024 * 1024;

type Stamp = Pick<Stats, "size" | "mtimeMs" | "ctimeMs" | "ino" | "dev">;

type Recorded =
  | {
      kind: "file";
      hash: string;
      stamp: Stamp | undefined;
      /** NAME of its `#!/usr/bin/env NAME` line, when it is executable (env-shebang.ts). */
      envInterpreter?: string;
    }
  | { kind: "absent" };

/** What `changed` reports: the hook's file that is not what the session loaded, and how. */
export interface ChangedHookFile {
  file: string;
  how: "edited" | "removed" | "created" | "unreadable";
}

/** The check a run makes (run.ts): the file of this hook that changed, if any. */
export interface HookFileCheck {
  changed(hook: HookDefinition): ChangedHookFile | undefined;
  /**
   * NAME of `file`'s `#!/usr/bin/env NAME` line as the session loaded it (the
   * file executable), for a file `changed` has just found unchanged: the run
   * then starts `NAME file` (decision 0076).
   */
  envInterpreter?(file: string): string | undefined;
}

export interface HookFingerprintOptions extends HookFileRoots {
  /** Expected sha256 by absolute path (the trust manifest's, for project files). */
  known?: ReadonlyMap<string, string>;
}

export class HookFingerprints implements HookFileCheck {
  readonly #files = new Map<string, Recorded>();
  readonly #byHook = new Map<string, readonly string[]>();

  /** Records the files of `hooks` as they are now (or as trust saw them). */
  static record(
    hooks: readonly HookDefinition[],
    options: HookFingerprintOptions,
  ): HookFingerprints {
    const prints = new HookFingerprints();
    for (const hook of hooks) {
      const files = hookFiles(hook, options).map((f) => path.resolve(f));
      prints.#byHook.set(hook.id, files);
      for (const file of files) {
        if (!prints.#files.has(file)) prints.#files.set(file, recordNow(file, options.known));
      }
    }
    return prints;
  }

  changed(hook: HookDefinition): ChangedHookFile | undefined {
    for (const file of this.#byHook.get(hook.id) ?? []) {
      const recorded = this.#files.get(file);
      if (recorded === undefined) continue;
      const how = this.#check(file, recorded);
      if (how !== undefined) return { file, how };
    }
    return undefined;
  }

  envInterpreter(file: string): string | undefined {
    const recorded = this.#files.get(file);
    return recorded?.kind === "file" ? recorded.envInterpreter : undefined;
  }

  #check(file: string, recorded: Recorded): ChangedHookFile["how"] | undefined {
    const stats = statOr(file);
    if (recorded.kind === "absent") return stats === undefined ? undefined : "created";
    if (stats === undefined) return "removed";
    if (recorded.stamp !== undefined && sameStamp(recorded.stamp, stats)) return undefined;
    const now = hashOf(file);
    if (now === undefined) return "unreadable";
    if (now.hash !== recorded.hash) return "edited";
    // Touched, not changed: the next check is a stat again (its mode may be new: read again).
    const touched = { kind: "file", hash: recorded.hash, stamp: now.stamp } as const;
    this.#files.set(file, { ...touched, ...interpreterOf(file, now.data) });
    return undefined;
  }
}

/** The words of a warning and of the hook's failure: which file, what happened, what to do. */
export function changedHookText(hook: HookDefinition, changed: ChangedHookFile): string {
  const what = {
    edited: "changed",
    removed: "was removed",
    created: "appeared",
    unreadable: "can no longer be read",
  }[changed.how];
  const again =
    hook.scope === "project"
      ? "start a new session (acai asks you to trust the project's hooks again)"
      : "start a new session to load it";
  return `was not run: its file ${changed.file} ${what} since this session loaded it, so it may not be the code that was trusted; the hook counts as failed (failure: ${hook.failure}). Check the change and ${again}`;
}

function recordNow(file: string, known: ReadonlyMap<string, string> | undefined): Recorded {
  const stats = statOr(file);
  if (stats === undefined) return { kind: "absent" };
  const now = hashOf(file);
  const expected = known?.get(file);
  if (now === undefined) return { kind: "file", hash: expected ?? "unreadable", stamp: undefined };
  if (expected !== undefined && expected !== now.hash) {
    // Edited after trust was checked: what trust saw is the reference, never matched by a stat.
    return { kind: "file", hash: expected, stamp: undefined };
  }
  return { kind: "file", hash: now.hash, stamp: now.stamp, ...interpreterOf(file, now.data) };
}

function interpreterOf(file: string, data: Buffer): { envInterpreter?: string } {
  const name = envInterpreterOfFile(file, data);
  return name === undefined ? {} : { envInterpreter: name };
}

function hashOf(file: string): { hash: string; stamp: Stamp; data: Buffer } | undefined {
  const read = readRegularFileSync(file, MAX_HASHED_BYTES);
  if (!read.ok) return undefined;
  return {
    hash: createHash("sha256").update(read.data).digest("hex"),
    stamp: stampOf(read.stats),
    data: read.data,
  };
}

function stampOf(stats: Stamp): Stamp {
  const { size, mtimeMs, ctimeMs, ino, dev } = stats;
  return { size, mtimeMs, ctimeMs, ino, dev };
}

function sameStamp(a: Stamp, b: Stamp): boolean {
  return (
    a.size === b.size &&
    a.mtimeMs === b.mtimeMs &&
    a.ctimeMs === b.ctimeMs &&
    a.ino === b.ino &&
    a.dev === b.dev
  );
}

function statOr(file: string): Stats | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

/** The trust manifest's file hashes by absolute path (`file x <sha256>` and `settings <sha256>` entries). */
export function manifestHashes(
  projectDir: string,
  entries: readonly { key: string; digest: string }[],
): Map<string, string> {
  const hashes = new Map<string, string>();
  for (const entry of entries) {
    const match = /^(?:file [x-]|settings) ([0-9a-f]{64})$/.exec(entry.digest);
    if (match?.[1] === undefined) continue;
    hashes.set(manifestEntryPath(projectDir, entry.key), match[1]);
  }
  return hashes;
}

/** Manifest keys name files named by configuration with a prefix (project/manifest.ts, project/pins.ts). */
const NAMED_FILE_PREFIX = /^(script|interpreter|mcp-server|replay):/;

/**
 * The file a trust manifest key names: `hooks/x` (relative to the project),
 * `hooks/x@` (where the link `hooks/x` leads), `script:…`, `interpreter:…`,
 * `mcp-server:…`, `replay:…` (files configuration names; absolute when
 * outside the project).
 */
export function manifestEntryPath(projectDir: string, key: string): string {
  const bare = key.replace(NAMED_FILE_PREFIX, "").replace(/@$/, "");
  return path.isAbsolute(bare) ? bare : path.join(projectDir, ...bare.split("/"));
}
