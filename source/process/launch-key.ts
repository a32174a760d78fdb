/**
 * A sandbox launch's key: the hash of its bwrap arguments and of which
 * spawner serves it (one spawner per key: the same arguments, the same
 * sandbox, the same kind of spawner — decision 0059: a forecast of a Node
 * spawner is never taken for a Python one, nor the other way round). Node
 * built-ins only: `main.ts` names the spawner forecast's file with
 * `folderKey` before the rest of acai loads.
 */
import { createHash } from "node:crypto";
import type { SpawnerKind } from "./types.js";

function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export function launchKey(bwrapArgs: readonly string[], helper: SpawnerKind): string {
  return shortHash(JSON.stringify({ helper, bwrapArgs }));
}

/** A folder's key (the spawner forecast's file name). */
export function folderKey(folder: string): string {
  return shortHash(JSON.stringify([folder]));
}
