/**
 * TypeScript hooks run with acai's own Node. A `.ts`/`.mts`/`.cts` file
 * whose `#!` line is `#!/usr/bin/env node` (what `acai hooks init --lang ts`
 * writes), or a HOOK.md script that runs through `node` by its extension,
 * would otherwise run with whichever `node` is first on PATH — often an older
 * one that cannot strip types. acai's Node can (the version it needs is its
 * own requirement), so the hook works wherever acai does.
 *
 * `withOwnNodeForTypeScript` wraps the process runner: every start of such a
 * file (describe and each run) becomes `<acai's node> [flags] <file> …`. Any
 * other command is left alone, and so is a `#!` naming a node by path or with
 * options of its own (the author chose). The Node is given by the caller
 * (`process.execPath` and `process.version` at the command or session root).
 */
import { open } from "node:fs/promises";
import path from "node:path";
import type { ProcessStarter } from "../../process/long-lived.js";
import type { ProcessRunner, RunOptions } from "../../process/types.js";

export interface NodeRuntime {
  /** Absolute path of the node binary (`process.execPath`). */
  execPath: string;
  /** `process.version`, e.g. `v24.1.0`. */
  version: string;
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);

/** Whether `file` is named as a TypeScript file (`.ts`, `.mts`, `.cts`). */
export function isTypeScriptFile(file: string): boolean {
  return TYPESCRIPT.has(path.extname(file));
}
/** `#!/usr/bin/env node` (and `env -S node`): the node first on PATH, without options. */
const ENV_NODE = /^#!\s*\/usr\/bin\/env\s+(?:-S\s+)?node\s*$/;

/**
 * The flags Node `version` needs to run a TypeScript file, or undefined when it
 * cannot: none from 22.18 and 23.6, `--experimental-strip-types` from 22.6.
 */
export function typeStrippingFlags(version: string): string[] | undefined {
  const match = /^v?(\d+)\.(\d+)/.exec(version.trim());
  if (!match) return undefined;
  const major = Number(match[1]);
  const minor = Number(match[2]);
  if (major >= 24 || (major === 23 && minor >= 6) || (major === 22 && minor >= 18)) return [];
  if (major === 23 || (major === 22 && minor >= 6))
    return ["--experimental-strip-types", "--disable-warning=ExperimentalWarning"];
  return undefined;
}

async function firstLine(file: string): Promise<string> {
  const handle = await open(file, "r").catch(() => undefined);
  if (handle === undefined) return "";
  try {
    const buffer = Buffer.alloc(256);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return (buffer.toString("utf8", 0, bytesRead).split("\n")[0] ?? "").replace(/\r$/, "");
  } catch {
    return "";
  } finally {
    await handle.close();
  }
}

/** The TypeScript file this start would hand to PATH's node, if any. */
async function typeScriptFileOf(
  options: Pick<RunOptions, "command" | "args">,
): Promise<string | undefined> {
  const { command } = options;
  const [first] = options.args ?? [];
  if (command === "node" && first !== undefined && isTypeScriptFile(first)) return first;
  if (path.isAbsolute(command) && isTypeScriptFile(command)) {
    return ENV_NODE.test(await firstLine(command)) ? command : undefined;
  }
  return undefined;
}

/** `runner`, starting TypeScript hooks with `node` instead of PATH's node (see the file's comment). */
export function withOwnNodeForTypeScript(runner: ProcessRunner, node: NodeRuntime): ProcessRunner {
  const rewrite = ownNodeRewrite(node);
  return rewrite === undefined ? runner : async (options) => runner(await rewrite(options));
}

/** The same for the starter of persistent hooks' processes. */
export function withOwnNodeForTypeScriptStarter(
  starter: ProcessStarter,
  node: NodeRuntime,
): ProcessStarter {
  const rewrite = ownNodeRewrite(node);
  return rewrite === undefined ? starter : async (options) => starter(await rewrite(options));
}

type Launch = { command: string; args?: readonly string[] | undefined };

function ownNodeRewrite(
  node: NodeRuntime,
): (<T extends Launch>(options: T) => Promise<T>) | undefined {
  const flags = typeStrippingFlags(node.version);
  if (flags === undefined) return undefined;
  return async (options) => {
    const { command } = options;
    const looksTs = (command === "node" && options.args !== undefined) || isTypeScriptFile(command);
    if (!looksTs) return options;
    const file = await typeScriptFileOf(options);
    if (file === undefined) return options;
    const rest = command === "node" ? (options.args ?? []).slice(1) : (options.args ?? []);
    return { ...options, command: node.execPath, args: [...flags, file, ...rest] };
  };
}
