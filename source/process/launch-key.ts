/**
 * A sandbox launch's key: the hash of its bwrap arguments and of which
 * spawner serves it (one spawner per key: the same arguments, the same
 * sandbox, the same kind of spawner — decision 0059: a Node spawner never
 * serves a launch that asks for a Python one, nor the other way round).
 */
import { createHash } from "node:crypto";
import type { SpawnerKind } from "./types.js";

export function launchKey(bwrapArgs: readonly string[], helper: SpawnerKind): string {
  const text = JSON.stringify({ helper, bwrapArgs });
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}
