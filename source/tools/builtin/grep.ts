import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { z } from "zod";
import { defineTool, errorText } from "../define.js";
import { listFiles, mapSliced, statOrUndefined } from "../files.js";
import {
  capForModel,
  looksBinary,
  MAX_LINE_CHARS,
  plural,
  resolvePath,
  splitLines,
} from "../text.js";
import type { Tool, ToolContext, ToolResult } from "../types.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";

/** Files larger than this are skipped (and counted in the output). */
const GREP_MAX_FILE_BYTES = 10 * 1024 * 1024;
/** Entries gathered at most when no head_limit is given, to bound memory. */
const MAX_ENTRIES = 20_000;

const outputModes = ["content", "files_with_matches", "count"] as const;
type OutputMode = (typeof outputModes)[number];

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() => {
  const context = () => z.number().int().min(0).max(100).optional();
  return z.object({
    pattern: z
      .string()
      .min(1)
      .describe("JavaScript regular expression to search for, line by line"),
    path: z
      .string()
      .optional()
      .describe("File or directory to search (default: the project directory)"),
    glob: z
      .string()
      .optional()
      .describe(
        'Only search files matching this glob, e.g. "*.ts" (any depth) or "src/**/*.{js,ts}"',
      ),
    output_mode: z
      .enum(outputModes)
      .optional()
      .default("files_with_matches")
      .describe(
        "content: matching lines; files_with_matches: file paths (default); count: matches per file",
      ),
    "-i": z.boolean().optional().describe("Case-insensitive search"),
    "-n": z.boolean().optional().describe("Show line numbers in content mode (default true)"),
    "-A": context().describe("Lines of context after each match (content mode)"),
    "-B": context().describe("Lines of context before each match (content mode)"),
    "-C": context().describe("Lines of context before and after each match (content mode)"),
    head_limit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("Return only the first N lines/files/counts"),
  });
});
type GrepInput = z.output<typeof input>;

interface GrepResponse {
  mode: OutputMode;
  numFiles: number;
  filenames: string[];
  content?: string;
  numLines?: number;
  numMatches?: number;
  truncated: boolean;
}

interface FileHit {
  file: string;
  matchCount: number;
  /** Formatted output lines (content mode only). */
  content: string[];
}

type Scan = { kind: "hit"; hit: FileHit } | { kind: "none" } | { kind: "skipped" };

function fail(error: string): ToolResult {
  return { ok: false, error, interrupted: false };
}

/** ripgrep-like: a glob without "/" matches the file name at any depth. */
function fileFilter(globPattern: string | undefined): string {
  if (!globPattern) return "**/*";
  return globPattern.includes("/") ? globPattern : `**/${globPattern}`;
}

/** Whole file, or why not: missing/unreadable, too big, binary. */
function readSmallText(file: string): string | "skipped" | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) return undefined;
    if (info.size > GREP_MAX_FILE_BYTES) return "skipped";
    const buf = readFileSync(fd);
    return looksBinary(buf) ? undefined : buf.toString("utf8");
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

interface Matchers {
  /** Per line, as the results are defined. */
  line: RegExp;
  /** The same pattern with the `m` flag over the whole text: a cheap superset test to skip most files unsplit. */
  whole: RegExp;
}

function scanFile(file: string, regex: Matchers, options: GrepInput): Scan {
  const text = readSmallText(file);
  if (text === undefined) return { kind: "none" };
  if (text === "skipped") return { kind: "skipped" };
  if (!regex.whole.test(text)) return { kind: "none" };
  const lines = splitLines(text);
  const firstOnly = options.output_mode === "files_with_matches";
  const matches: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (regex.line.test(lines[i]!)) {
      matches.push(i);
      if (firstOnly) break;
    }
  }
  if (matches.length === 0) return { kind: "none" };
  const content =
    options.output_mode === "content" ? contentLines(file, lines, matches, options) : [];
  return { kind: "hit", hit: { file, matchCount: matches.length, content } };
}

function contentLines(
  file: string,
  lines: string[],
  matches: number[],
  options: GrepInput,
): string[] {
  const before = options["-B"] ?? options["-C"] ?? 0;
  const after = options["-A"] ?? options["-C"] ?? 0;
  const numbered = options["-n"] ?? true;
  const out: string[] = [];
  const matchSet = new Set(matches);
  let lastShown = -1;
  for (const m of matches) {
    const from = Math.max(0, m - before, lastShown + 1);
    const to = Math.min(lines.length - 1, m + after);
    if (lastShown >= 0 && from > lastShown + 1 && (before > 0 || after > 0)) out.push("--");
    for (let i = from; i <= to; i++) {
      const sep = matchSet.has(i) ? ":" : "-";
      const line = truncateLine(lines[i]!);
      out.push(numbered ? `${file}${sep}${i + 1}${sep}${line}` : `${file}${sep}${line}`);
    }
    lastShown = Math.max(lastShown, to);
  }
  return out;
}

function truncateLine(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line truncated]` : line;
}

export function grepTool(): Tool {
  return defineTool({
    name: "Grep",
    description:
      "Searches file contents with a JavaScript regular expression, line by line. Skips .git, node_modules, " +
      "files ignored by .gitignore (unless named as path), binary files and files over 10 MiB. output_mode: files_with_matches (default), content, or count. " +
      "Results are sorted by path.",
    input,
    inputSchema: BUILTIN_INPUT_SCHEMAS.Grep,
    async execute(options, toolContext) {
      const regex = matchersFor(options);
      if ("ok" in regex) return regex;
      const files = await filesToSearch(options, toolContext);
      if (!Array.isArray(files)) return files;
      const scans = await mapSliced(
        files,
        (file) => scanFile(file, regex, options),
        toolContext.signal,
      );
      if (toolContext.signal.aborted)
        return { ok: false, error: "Grep was aborted", interrupted: true };
      const hits = scans.flatMap((s) => (s.kind === "hit" ? [s.hit] : []));
      const skipped = scans.filter((s) => s.kind === "skipped").length;
      return grepResult(options.output_mode, hits, {
        skipped,
        limit: options.head_limit ?? MAX_ENTRIES,
      });
    },
  });
}

function matchersFor(options: GrepInput): Matchers | ToolResult {
  try {
    const flags = options["-i"] ? "i" : "";
    return {
      line: new RegExp(options.pattern, flags),
      whole: new RegExp(options.pattern, `${flags}m`),
    };
  } catch (error) {
    return fail(`Invalid regular expression in pattern: ${errorText(error)}`);
  }
}

/** The files under `path` (sorted) that the glob and the session's Read rules leave, or the one file named. */
async function filesToSearch(
  options: GrepInput,
  toolContext: ToolContext,
): Promise<string[] | ToolResult> {
  const root = resolvePath(toolContext.cwd, options.path ?? ".");
  const info = await statOrUndefined(root);
  if (!info) return fail(`Path not found: ${root}`);
  if (!info.isDirectory()) {
    // The call's own path was judged by the permission check (a deny or ask rule applied there).
    return [root];
  }
  const files = await listFiles(root, fileFilter(options.glob), {
    signal: toolContext.signal,
    projectDir: toolContext.cwd,
    // Files the session's Read deny (or ask) rules catch are not searched.
    readable: toolContext.readable,
  });
  return files.sort();
}

/** The entries of a mode (up to just over `limit`), and the total of matches in count mode. */
function entriesOf(
  mode: OutputMode,
  hits: readonly FileHit[],
  limit: number,
): { entries: string[]; numMatches?: number } {
  switch (mode) {
    case "files_with_matches":
      return { entries: hits.map((h) => h.file) };
    case "count":
      return {
        entries: hits.map((h) => `${h.file}:${h.matchCount}`),
        numMatches: hits.reduce((sum, h) => sum + h.matchCount, 0),
      };
    case "content": {
      const entries: string[] = [];
      for (const hit of hits) {
        entries.push(...hit.content);
        if (entries.length > limit) break;
      }
      return { entries };
    }
    default:
      return mode satisfies never;
  }
}

function grepResult(
  mode: OutputMode,
  hits: readonly FileHit[],
  { skipped, limit }: { skipped: number; limit: number },
): ToolResult {
  const { entries, numMatches } = entriesOf(mode, hits, limit);
  const truncated = entries.length > limit;
  const shown = entries.slice(0, limit);
  const response: GrepResponse = {
    mode,
    numFiles: hits.length,
    filenames: hits.map((h) => h.file),
    truncated,
    ...(mode === "content" ? { content: shown.join("\n"), numLines: shown.length } : {}),
    ...(numMatches === undefined ? {} : { numMatches }),
  };
  const notes: string[] = [];
  if (truncated)
    notes.push(`(showing the first ${plural(limit, "entry", "entries")}; more were found)`);
  if (skipped > 0) notes.push(`(${plural(skipped, "file")} over 10 MiB not searched)`);
  if (shown.length === 0)
    return { ok: true, output: ["No matches found", ...notes].join("\n"), response };
  const header =
    mode === "files_with_matches"
      ? `Found ${plural(hits.length, "file")}`
      : mode === "count"
        ? `${plural(numMatches ?? 0, "match", "matches")} in ${plural(hits.length, "file")}`
        : "";
  const body = [header, ...shown, ...notes].filter((s) => s !== "").join("\n");
  return { ok: true, output: capForModel(body), response };
}
