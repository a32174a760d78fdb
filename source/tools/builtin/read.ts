import { constants } from "node:fs";
import { lstat, open, readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { z } from "zod";
import { defineTool } from "../define.js";
import { landingAsJudged } from "../landing.js";
import { looksBinary, numberLine, plural, resolvePath, splitLines } from "../text.js";
import type { Tool, ToolResult } from "../types.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";

const READ_DEFAULT_LIMIT = 2000;
/** Larger files are read only in part (with offset/limit), streamed line by line. */
const READ_MAX_WHOLE_FILE_BYTES = 10 * 1024 * 1024;

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() =>
  z.object({
    file_path: z
      .string()
      .min(1)
      .describe("Path of the file to read (absolute, or relative to the project)"),
    offset: z.number().int().min(1).optional().describe("1-based line number to start from"),
    limit: z
      .number()
      .int()
      .positive()
      .optional()
      .describe(`How many lines to read (default ${READ_DEFAULT_LIMIT})`),
  }),
);

interface ReadResponse {
  type: "text";
  file: {
    filePath: string;
    content: string;
    numLines: number;
    startLine: number;
    totalLines: number | null;
  };
}

function fail(error: string): ToolResult {
  return { ok: false, error, interrupted: false };
}

/** Opening flags: the file read is the judged landing itself, never a link swapped in. */
const NO_FOLLOW = constants.O_RDONLY | constants.O_NOFOLLOW;

async function headBytes(path: string): Promise<Buffer> {
  const handle = await open(path, NO_FOLLOW);
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** Lines [start, start+count) of a big file, without loading it whole. */
async function streamLines(path: string, start: number, count: number): Promise<string[]> {
  const lines: string[] = [];
  const handle = await open(path, NO_FOLLOW);
  const stream = handle.createReadStream({ encoding: "utf8" });
  const reader = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  let n = 0;
  try {
    for await (const line of reader) {
      n++;
      if (n >= start) lines.push(line);
      if (lines.length >= count) break;
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return lines;
}

export function readTool(): Tool {
  return defineTool({
    name: "Read",
    description:
      `Reads a text file and returns its lines numbered like cat -n (up to ${READ_DEFAULT_LIMIT} lines by default; ` +
      "use offset and limit for more). Very long lines are cut. Binary files are refused; " +
      "files over 10 MiB can only be read in parts with offset/limit.",
    input,
    inputSchema: BUILTIN_INPUT_SCHEMAS.Read,
    async execute({ file_path, offset, limit }, context) {
      const path = resolvePath(context.cwd, file_path);
      // Read where it lands (links resolved), as the permission check judged it.
      const landing = landingAsJudged(path, context.landing);
      if (!landing.ok) return fail(landing.reason);
      const real = landing.path;
      let info: Awaited<ReturnType<typeof lstat>>;
      try {
        info = await lstat(real);
      } catch {
        return fail(`File not found: ${path}`);
      }
      if (info.isDirectory())
        return fail(`${path} is a directory, not a file. Use Glob or Bash (ls) to list it.`);
      if (!info.isFile()) return fail(`${path} is not a regular file.`);
      if (looksBinary(await headBytes(real))) {
        return fail(`${path} is a binary file (${info.size} bytes); Read shows text files only.`);
      }
      const start = offset ?? 1;
      const count = limit ?? READ_DEFAULT_LIMIT;
      const huge = info.size > READ_MAX_WHOLE_FILE_BYTES;
      if (huge && offset === undefined && limit === undefined) {
        const mib = (info.size / (1024 * 1024)).toFixed(1);
        return fail(
          `${path} is too large to read whole (${mib} MiB, limit 10 MiB). ` +
            "Read a part with offset and limit, or search it with Grep.",
        );
      }
      let selected: string[];
      let totalLines: number | null;
      if (huge) {
        selected = await streamLines(real, start, count);
        totalLines = null;
      } else {
        const all =
          info.size === 0
            ? []
            : splitLines(await readFile(real, { encoding: "utf8", flag: NO_FOLLOW }));
        totalLines = all.length;
        if (totalLines === 0) {
          return {
            ok: true,
            output: `(${path} is empty)`,
            response: response(path, "", 0, start, 0),
          };
        }
        if (start > totalLines) {
          return fail(
            `${path} has ${plural(totalLines, "line")}; offset ${start} is past the end.`,
          );
        }
        selected = all.slice(start - 1, start - 1 + count);
      }
      if (selected.length === 0)
        return fail(`${path}: offset ${start} is past the end of the file.`);
      const end = start + selected.length - 1;
      let output = selected.map((line, i) => numberLine(start + i, line)).join("\n");
      if (totalLines === null) {
        output += `\n\n(showing lines ${start}-${end} of a large file; use offset to read more)`;
      } else if (start > 1 || end < totalLines) {
        output += `\n\n(showing lines ${start}-${end} of ${totalLines}; use offset and limit to read more)`;
      }
      return {
        ok: true,
        output,
        response: response(path, selected.join("\n"), selected.length, start, totalLines),
      };
    },
  });
}

function response(
  filePath: string,
  content: string,
  numLines: number,
  startLine: number,
  totalLines: number | null,
): ReadResponse {
  return { type: "text", file: { filePath, content, numLines, startLine, totalLines } };
}
