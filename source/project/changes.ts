/**
 * What changed in a project since the user last trusted it: entries of the
 * current manifest compared with the recorded ones. Pure, for the review.
 */
import type { ManifestEntry } from "./manifest.js";

export type ProjectChanges =
  | { kind: "first-review" }
  /** Trusted by an acai that did not keep the entries: only "something changed" is known. */
  | { kind: "unknown" }
  | { kind: "changed"; added: string[]; removed: string[]; edited: string[] };

export function projectChanges(
  current: readonly ManifestEntry[],
  recorded: { entries?: Readonly<Record<string, string>> } | undefined,
): ProjectChanges {
  if (recorded === undefined) return { kind: "first-review" };
  if (recorded.entries === undefined) return { kind: "unknown" };
  const before = recorded.entries;
  const now = new Map(current.map((entry) => [entry.key, entry.digest]));
  const added: string[] = [];
  const edited: string[] = [];
  for (const [key, digest] of now) {
    if (!(key in before)) added.push(key);
    else if (before[key] !== digest) edited.push(key);
  }
  const removed = Object.keys(before)
    .filter((key) => !now.has(key))
    .sort();
  return { kind: "changed", added, removed, edited };
}
