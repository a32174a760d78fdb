/**
 * A TypeScript hook starts with `#!/usr/bin/env node`, but acai starts it
 * with the Node acai itself runs on (hooks/run/typescript-launch.ts), whatever
 * `node` is first on PATH. `acai hooks init --lang ts` warns only when that
 * Node cannot run TypeScript (older than 22.6), rather than letting the
 * first `hooks test` fail on a Node stack trace.
 */
import { type NodeRuntime, typeStrippingFlags } from "../../hooks/run/typescript-launch.js";

/** The warning for a TypeScript hook at `file` (as the user named it), or nothing when acai's Node runs it. */
export function typeScriptNodeWarning(node: NodeRuntime, file: string): string | undefined {
  if (typeStrippingFlags(node.version) !== undefined) return undefined;
  return `acai runs on Node ${node.version} (${node.execPath}), which cannot run TypeScript, so ${file} cannot run: TypeScript hooks run with acai's own Node and need Node >= 22.6 (>= 22.18 without flags). Run acai on a newer Node, compile the hook with tsc, or write it in JavaScript instead (--lang node).`;
}
