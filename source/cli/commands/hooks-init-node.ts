/**
 * A TypeScript hook starts with `#!/usr/bin/env node`: whichever `node` is
 * first on PATH runs it, and only Node >= 22.18 (or >= 23.6) runs `.mts`
 * files without flags. `acai hooks init --lang ts` checks that node at once,
 * rather than letting the first `hooks test` fail on a Node stack trace.
 */
import type { ProcessRunner } from "../../process/types.js";

export interface NodeOnPath {
  version: string;
  execPath: string;
}

/** Whether Node `version` (`v22.18.0`) strips TypeScript types by default. */
export function stripsTypesByDefault(version: string): boolean {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major >= 24) return true;
  if (major === 23) return minor >= 6;
  if (major === 22) return minor >= 18;
  return false;
}

/** Node 22.6–22.17 and 23.0–23.5 strip types only with a flag. */
function stripsTypesWithFlag(version: string): boolean {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return false;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  return (major === 22 && minor >= 6) || major === 23;
}

export async function findNodeOnPath(options: {
  runner: ProcessRunner;
  env: Readonly<Record<string, string>>;
  cwd: string;
}): Promise<NodeOnPath | undefined> {
  const result = await options.runner({
    command: "node",
    args: ["-p", 'process.version + " " + process.execPath'],
    cwd: options.cwd,
    env: options.env,
    timeoutMs: 5000,
    maxOutputBytes: 64 * 1024,
  });
  if (result.spawnError !== undefined || result.exitCode !== 0) return undefined;
  const [version, ...rest] = result.stdout.trim().split(" ");
  if (!version) return undefined;
  return { version, execPath: rest.join(" ") || "node" };
}

/** The warning for a TypeScript hook at `file` (as the user named it), or nothing when node can run it. */
export function typeScriptNodeWarning(
  node: NodeOnPath | undefined,
  file: string,
): string | undefined {
  const alternatives = "or write the hook in JavaScript instead (--lang node)";
  if (!node) {
    return `no working \`node\` found on your PATH, so ${file} (#!/usr/bin/env node) cannot run. Install Node >= 22.18 and put it on PATH, ${alternatives}.`;
  }
  if (stripsTypesByDefault(node.version)) return undefined;
  const flag = stripsTypesWithFlag(node.version)
    ? ", change its first line to `#!/usr/bin/env -S node --experimental-strip-types`"
    : "";
  return `the \`node\` on your PATH is ${node.version} (${node.execPath}), which cannot run TypeScript: ${file} starts with #!/usr/bin/env node, and running a .mts file needs Node >= 22.18 (or >= 23.6). Put a newer Node first on PATH${flag}, ${alternatives}.`;
}
