/**
 * The symbolic links in the trusted set, for the review: each link entry of
 * the manifest (project/manifest.ts: `link <text>`), where it resolves, and
 * whether that is outside the project — a repository that ships
 * `AGENTS.md -> ~/.ssh/id_rsa` must not pass as ordinary instructions.
 */
import { realpathSync } from "node:fs";
import path from "node:path";
import type { ManifestEntry } from "./manifest.js";

export interface TrustedLink {
  /** The manifest key of the link (`AGENTS.md`, `mcp-server:tools/server.js`). */
  key: string;
  /** Where it points: the resolved path, or the link's text when it dangles. */
  target: string;
  /** It resolves outside the project root (or dangles to a path outside it). */
  outside: boolean;
  dangling: boolean;
}

const KEY_KIND = /^(?:script|interpreter|mcp-server|replay):/;

/** The links among the manifest's entries, in key order. */
export function trustedLinks(entries: readonly ManifestEntry[], projectDir: string): TrustedLink[] {
  const root = realpathOr(path.resolve(projectDir));
  const links: TrustedLink[] = [];
  for (const entry of entries) {
    if (!entry.digest.startsWith("link ")) continue;
    const named = entry.key.replace(KEY_KIND, "");
    const file = path.isAbsolute(named) ? named : path.join(projectDir, ...named.split("/"));
    const text = entry.digest.slice("link ".length);
    const real = realpathOrUndefined(file);
    const target = real ?? path.resolve(path.dirname(file), text);
    links.push({ key: entry.key, target, outside: !isInside(root, target), dangling: !real });
  }
  return links;
}

/** The path a project file resolves to, if it exists; else undefined. */
export function realpathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function realpathOr(file: string): string {
  return realpathOrUndefined(file) ?? file;
}

/** `file` is the root or below it. */
export function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
