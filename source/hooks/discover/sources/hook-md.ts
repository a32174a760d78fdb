import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { type FrontmatterResult, readFrontmatter } from "../../../config/frontmatter.js";
import { MAX_PROJECT_FILE_BYTES, readRegularFileSync } from "../../../config/read-regular-file.js";
import { PARSED_ONCE } from "../../../shared/parsed-once.js";
import type {
  BrokenHook,
  HookDefinition,
  HookLaunch,
  HookScope,
} from "../../contract/definition.js";
import { InvalidMatcherError, prepareHookMatcher } from "../../contract/match.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  formatZodError,
  HookMdFrontmatterSchema,
} from "../../contract/schemas/metadata.js";
import { isExecutableMode, type ScanReader } from "./files.js";

export { readFrontmatter } from "../../../config/frontmatter.js";

export interface HookMdCandidate {
  scope: HookScope;
  /** The hook's folder. */
  dir: string;
  /** Absolute path of its HOOK.md. */
  file: string;
  text: string;
  /** Its frontmatter, parsed while scanning (the YAML parser loads only when a HOOK.md exists). */
  frontmatter: FrontmatterResult;
  /** First `scripts/run*` file, if any. */
  script?: {
    path: string;
    executable: boolean;
    firstLine: string;
    /** Its first bytes hold a NUL: a compiled program, run directly when executable. */
    binary?: boolean;
  };
}

/** Folders of `dir` that hold a HOOK.md. */
export async function findHookMds(
  reader: ScanReader,
  dir: string,
  scope: HookScope,
): Promise<HookMdCandidate[]> {
  const found = await Promise.all(
    (await reader.list(dir)).map(async (entry): Promise<HookMdCandidate | undefined> => {
      if (entry.name.startsWith(".")) return undefined;
      if (!entry.isDirectory() && !entry.isSymbolicLink()) return undefined;
      const hookDir = path.join(dir, entry.name);
      const dirStats = entry.isDirectory() ? entry : await reader.stat(hookDir);
      if (!dirStats?.isDirectory()) return undefined;
      const file = path.join(hookDir, "HOOK.md");
      const read = readHookMd(file);
      if (read === undefined) return undefined;
      const { text } = read;
      const frontmatter = read.problem ?? (await readFrontmatter(text));
      const candidate: HookMdCandidate = { scope, dir: hookDir, file, text, frontmatter };
      const scriptsDir = path.join(hookDir, "scripts");
      for (const script of await reader.list(scriptsDir)) {
        if (!script.name.startsWith("run")) continue;
        const scriptPath = path.join(scriptsDir, script.name);
        const stats = await reader.stat(scriptPath);
        if (!stats?.isFile()) continue;
        const head = readHead(scriptPath, 512);
        candidate.script = {
          path: scriptPath,
          executable: isExecutableMode(stats),
          firstLine: head.toString("utf8").split("\n")[0] ?? "",
          binary: head.includes(0),
        };
        break;
      }
      return candidate;
    }),
  );
  return found.filter((c): c is HookMdCandidate => c !== undefined);
}

/**
 * A HOOK.md is project text read before trust: only a regular file, opened
 * without blocking, at most MAX_PROJECT_FILE_BYTES (a link to `/dev/zero` or a
 * FIFO costs nothing). Undefined when there is none; a file that is there but
 * cannot be read is a broken hook with the reason.
 */
function readHookMd(file: string): { text: string; problem?: FrontmatterResult } | undefined {
  const read = readRegularFileSync(file, MAX_PROJECT_FILE_BYTES);
  if (read.ok) return { text: read.data.toString("utf8") };
  if (read.problem === "missing") return undefined;
  return { text: "", problem: { ok: false, reason: `HOOK.md cannot be read: ${read.reason}` } };
}

/** The first bytes of a script; empty unless it is a regular file (never blocks on a FIFO). */
function readHead(file: string, bytes: number): Buffer {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return Buffer.alloc(0);
  }
  try {
    if (!fstatSync(fd).isFile()) return Buffer.alloc(0);
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return Buffer.alloc(0);
  } finally {
    closeSync(fd);
  }
}

const INTERPRETERS: Readonly<Record<string, string>> = {
  ".sh": "bash",
  ".bash": "bash",
  ".py": "python3",
  ".js": "node",
  ".mjs": "node",
  ".cjs": "node",
  ".ts": "node",
  ".mts": "node",
  ".rb": "ruby",
  ".pl": "perl",
};

/**
 * How to start the script without a shell. A script with a `#!` line runs
 * directly when executable, otherwise through that line. A script without one
 * runs through the interpreter its extension names, even when executable:
 * spawned directly, it would fall back to `/bin/sh`, which reads Python as
 * shell (and sh's exit 2 would count as a block). A compiled program (NUL
 * bytes in its head) runs directly when executable. Anything else is broken.
 */
function scriptLaunch(script: NonNullable<HookMdCandidate["script"]>): HookLaunch | string {
  if (script.firstLine.startsWith("#!")) {
    if (script.executable) return { command: script.path, args: [], viaShell: false };
    const [interpreter, ...rest] = script.firstLine.slice(2).trim().split(/\s+/);
    if (interpreter) {
      // Like the kernel: everything after the interpreter is one argument.
      const args = rest.length > 0 ? [rest.join(" "), script.path] : [script.path];
      return { command: interpreter, args, viaShell: false };
    }
    return `${script.path} has an empty #! line; name an interpreter (e.g. #!/usr/bin/env bash)`;
  }
  const interpreter = INTERPRETERS[path.extname(script.path)];
  if (interpreter) return { command: interpreter, args: [script.path], viaShell: false };
  if (script.binary && script.executable) {
    return { command: script.path, args: [], viaShell: false };
  }
  const known = Object.keys(INTERPRETERS).join(" ");
  return `${script.path} has no #! line and an unknown extension, so acai cannot tell how to run it; add a #! line (e.g. #!/usr/bin/env python3) or use one of the extensions ${known}`;
}

export function hookMdDefinition(
  candidate: HookMdCandidate,
  projectDir: string,
  defaultTimeoutMs = DEFAULT_HOOK_TIMEOUT_MS,
): HookDefinition | BrokenHook {
  const folderName = path.basename(candidate.dir);
  const base = { file: candidate.file, scope: candidate.scope, sourceKind: "hook_md" as const };
  const front = candidate.frontmatter;
  if (!front.ok) return { ...base, name: folderName, reason: front.reason };
  const parsed = HookMdFrontmatterSchema.safeParse(front.data ?? {}, PARSED_ONCE);
  if (!parsed.success) {
    return {
      ...base,
      name: folderName,
      reason: `invalid frontmatter: ${formatZodError(parsed.error)}`,
    };
  }
  const meta = parsed.data;
  const name = meta.name ?? folderName;
  if (!candidate.script) {
    return {
      ...base,
      name,
      reason: `no script: add a file named run* to ${path.join(candidate.dir, "scripts")} (e.g. run.sh); it runs through its #! line or its extension (${Object.keys(INTERPRETERS).join(" ")}), or directly if it is an executable program`,
    };
  }
  const launch = scriptLaunch(candidate.script);
  if (typeof launch === "string") return { ...base, name, reason: launch };
  const hook: HookDefinition = {
    id: `${candidate.scope}:hook_md:${candidate.file}`,
    name,
    events: [meta.trigger.event],
    trigger: meta.trigger.spelling,
    matcher: meta.matcher,
    priority: meta.priority,
    timeoutMs: meta.timeout ?? defaultTimeoutMs,
    async: meta.async,
    failure: meta.failure,
    env: meta.env,
    ...(meta.sandbox === undefined ? {} : { sandbox: meta.sandbox }),
    ...base,
    dialect: "agenthooks",
    launch: meta.mode === "persistent" ? { ...launch, mode: meta.mode } : launch,
  };
  if (meta.description !== undefined) hook.description = meta.description;
  if (meta.max_retries !== undefined) hook.maxRetries = meta.max_retries;
  // Kept as written for spawned hooks too: the chain ignores it there (canAskAhead), the registry warns.
  if (meta.ask_ahead === true) hook.askAhead = true;
  try {
    prepareHookMatcher(hook, projectDir);
  } catch (error) {
    if (error instanceof InvalidMatcherError) return { ...base, name, reason: error.message };
    throw error;
  }
  return hook;
}
