import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "../../config/json-depth.js";
import {
  formatBytes,
  MAX_PROJECT_FILE_BYTES,
  readRegularFileSync,
} from "../../config/read-regular-file.js";
import type { BrokenHook, HookDefinition, HookLaunch, HookScope } from "../definition.js";
import { InvalidMatcherError, prepareHookMatcher } from "../match.js";
import {
  DEFAULT_HOOK_TIMEOUT_MS,
  formatZodError,
  HookMdFrontmatterSchema,
} from "../schemas/metadata.js";
import { isExecutableMode, type ScanReader } from "./files.js";

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

export type FrontmatterResult = { ok: true; data: unknown } | { ok: false; reason: string };

type YamlModule = typeof import("yaml");
let yamlModule: Promise<YamlModule> | undefined;

/**
 * Frontmatter is a few lines of settings; past this it is refused unparsed
 * (hostile YAML of this size still parses in a fraction of a second).
 */
export const MAX_FRONTMATTER_BYTES = 16 * 1024;
/** At most this many aliases (`*name`): a few are normal, many expand exponentially. */
const MAX_YAML_ALIASES = 16;
/**
 * Block nesting needs indentation (or `- `/`? ` on the same line), so the
 * column where a line's content starts bounds how deep a block can nest. The
 * YAML parser recurses per level, and deep enough it crashes the process (not
 * only an exception), so nesting is bounded on the text before parsing.
 */
const MAX_YAML_CONTENT_COLUMN = 2 * MAX_JSON_DEPTH;
/** Nodes visited when measuring the parsed value (aliases may repeat a subtree). */
const MAX_YAML_NODES = 100_000;

/** The `yaml` package, imported on first use: most projects have no HOOK.md (start-up time). */
function loadYaml(): Promise<YamlModule> {
  yamlModule ??= import("yaml");
  return yamlModule;
}

/**
 * Parses with limits: aliases capped, warnings not printed (they would quote
 * project text on stderr), and no list or map as a key, which the parser
 * turns into text at a cost that grows with nesting (seconds for 16 KiB).
 */
function parseYaml(yaml: YamlModule, text: string): unknown {
  const options = { maxAliasCount: MAX_YAML_ALIASES, logLevel: "error" } as const;
  const doc = yaml.parseDocument(text, options);
  const [error] = doc.errors;
  if (error) throw error;
  const nodes: unknown[] = [doc.contents];
  while (nodes.length > 0) {
    const node = nodes.pop();
    if (yaml.isPair(node)) {
      if (yaml.isCollection(node.key)) throw new Error("a key is a list or a map; use plain keys");
      nodes.push(node.value);
    } else if (yaml.isCollection(node)) {
      for (const item of node.items) nodes.push(item);
    }
  }
  return doc.toJS(options);
}

/** Why the frontmatter text is refused before parsing, if it is. */
function frontmatterTooBig(yamlText: string): string | undefined {
  const bytes = Buffer.byteLength(yamlText);
  if (bytes > MAX_FRONTMATTER_BYTES) {
    return `larger than ${formatBytes(MAX_FRONTMATTER_BYTES)} (${formatBytes(bytes)})`;
  }
  const tooDeep = `nests more than ${MAX_JSON_DEPTH} levels deep`;
  // Flow collections: brackets outside double-quoted strings (brackets in other scalars count too: conservative).
  if (jsonTextTooDeep(yamlText, MAX_JSON_DEPTH)) return tooDeep;
  for (const line of yamlText.split("\n")) {
    const indent = /^[ \t]*(?:[-?:](?:[ \t]+|$))*/.exec(line)?.[0].length ?? 0;
    if (indent > MAX_YAML_CONTENT_COLUMN) return tooDeep;
  }
  return undefined;
}

/** Whether a parsed value nests deeper than MAX_JSON_DEPTH (iterative; aliases may share subtrees). */
function parsedTooDeep(value: unknown): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let visited = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= MAX_JSON_DEPTH || ++visited > MAX_YAML_NODES) return true;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/** The YAML between the leading `---` lines of a HOOK.md. */
export async function readFrontmatter(text: string): Promise<FrontmatterResult> {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match)
    return {
      ok: false,
      reason: "HOOK.md has no YAML frontmatter (a block between --- lines at the top)",
    };
  const yamlText = match[1] ?? "";
  const refused = frontmatterTooBig(yamlText);
  if (refused) return { ok: false, reason: `invalid YAML frontmatter: ${refused}` };
  const yaml = await loadYaml();
  let data: unknown;
  try {
    data = parseYaml(yaml, yamlText);
  } catch (error) {
    return { ok: false, reason: `invalid YAML frontmatter: ${describeYamlError(error, text)}` };
  }
  if (parsedTooDeep(data)) {
    return {
      ok: false,
      reason: `invalid YAML frontmatter: nests more than ${MAX_JSON_DEPTH} levels deep (aliases included)`,
    };
  }
  return { ok: true, data };
}

const SNIPPET_MAX = 80;

/**
 * The parser's first line with the position in HOOK.md itself (the frontmatter
 * starts on line 2) instead of its dangling "at line L, column C:", then the
 * offending line, quoted so that a tab shows (`"\tname: x"`).
 */
function describeYamlError(error: unknown, text: string): string {
  if (!(error instanceof Error)) return String(error);
  const first = error.message.split("\n")[0] ?? "";
  const pos = (error as { linePos?: readonly { line: number; col: number }[] }).linePos?.[0];
  if (pos === undefined) return first.replace(/:\s*$/, "");
  const message = first.replace(/\s*at line \d+, column \d+:?\s*$/, "");
  const fileLine = pos.line + 1;
  const source = text.replace(/^\uFEFF/, "").split(/\r?\n/)[fileLine - 1];
  const where = `HOOK.md line ${fileLine}, column ${pos.col}`;
  if (source === undefined || source.trim() === "") return `${message} (${where})`;
  const snippet = source.length > SNIPPET_MAX ? `${source.slice(0, SNIPPET_MAX)}…` : source;
  return `${message} (${where}: ${JSON.stringify(snippet)})`;
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
  const parsed = HookMdFrontmatterSchema.safeParse(front.data ?? {});
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
  const { tool, pattern, command, path: glob, source } = meta.matcher;
  const hook: HookDefinition = {
    id: `${candidate.scope}:hook_md:${candidate.file}`,
    name,
    events: [meta.trigger],
    matcher: Object.fromEntries(
      Object.entries({ tool, pattern, command, path: glob, source }).filter(
        ([, v]) => v !== undefined,
      ),
    ),
    priority: meta.priority,
    timeoutMs: meta.timeout ?? defaultTimeoutMs,
    async: meta.async,
    failure: meta.failure,
    env: meta.env,
    ...base,
    dialect: "agenthooks",
    launch,
  };
  if (meta.description !== undefined) hook.description = meta.description;
  try {
    prepareHookMatcher(hook, projectDir);
  } catch (error) {
    if (error instanceof InvalidMatcherError) return { ...base, name, reason: error.message };
    throw error;
  }
  return hook;
}
