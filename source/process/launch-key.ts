/**
 * A sandbox launch's key: the hash of its bwrap arguments (one spawner per key:
 * the same arguments, the same sandbox). Node built-ins only: `main.ts` names
 * the spawner forecast's file with it before the rest of acai loads.
 */
import { createHash } from "node:crypto";

export function launchKey(bwrapArgs: readonly string[]): string {
  return createHash("sha256").update(JSON.stringify(bwrapArgs)).digest("hex").slice(0, 16);
}
