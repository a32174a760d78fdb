import { lstat, readFile } from "node:fs/promises";
import { z } from "zod";
import { defineTool } from "../define.js";
import { landingAsJudged } from "../landing.js";
import { looksBinary, numberLine, plural, resolvePath, splitLines } from "../text.js";
import type { Tool, ToolResult } from "../types.js";
import { NotFollowedError, writeNoFollow } from "../write-no-follow.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() =>
  z.object({
    file_path: z
      .string()
      .min(1)
      .describe("Path of the file to edit (absolute, or relative to the project)"),
    old_string: z
      .string()
      .describe("Exact text to replace (whitespace included); empty to create a new file"),
    new_string: z.string().describe("Text to put in its place"),
    replace_all: z
      .boolean()
      .optional()
      .default(false)
      .describe("Replace every occurrence instead of requiring old_string to be unique"),
  }),
);

interface EditResponse {
  filePath: string;
  oldString: string;
  newString: string;
  replaceAll: boolean;
  replacements: number;
}

function fail(error: string): ToolResult {
  return { ok: false, error, interrupted: false };
}

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (
    let i = haystack.indexOf(needle);
    i !== -1;
    i = haystack.indexOf(needle, i + needle.length)
  ) {
    count++;
  }
  return count;
}

/** A few numbered lines around the first change, so the model sees the result. */
function snippet(content: string, changeAt: number, changeLength: number): string {
  const lines = splitLines(content);
  const firstLine = content.slice(0, changeAt).split("\n").length;
  const lastLine =
    firstLine + content.slice(changeAt, changeAt + changeLength).split("\n").length - 1;
  const from = Math.max(1, firstLine - 3);
  const to = Math.min(lines.length, lastLine + 3, from + 40);
  const shown: string[] = [];
  for (let n = from; n <= to; n++) shown.push(numberLine(n, lines[n - 1] ?? ""));
  return shown.join("\n");
}

/** One edit of the file shown as `path`, read and written at `landing` (no link followed). */
async function edit(
  path: string,
  landing: string,
  { old_string, new_string, replace_all }: z.output<typeof input>,
): Promise<ToolResult> {
  const response = (replacements: number): EditResponse => ({
    filePath: path,
    oldString: old_string,
    newString: new_string,
    replaceAll: replace_all,
    replacements,
  });
  if (old_string === new_string) {
    return fail("old_string and new_string are identical; there is nothing to change.");
  }
  const info = await lstat(landing).catch(() => undefined);
  if (!info) {
    if (old_string !== "") {
      return fail(
        `File not found: ${path}. To create a file, use Write (or Edit with an empty old_string).`,
      );
    }
    await writeNoFollow(landing, new_string);
    return { ok: true, output: `Created ${path}`, response: response(1), wrote: path };
  }
  if (!info.isFile()) return fail(`${path} is not a regular file.`);
  const raw = await readFile(landing);
  if (looksBinary(raw)) return fail(`${path} is a binary file; Edit changes text files only.`);
  const content = raw.toString("utf8");
  if (old_string === "") {
    if (content !== "")
      return fail(`${path} already exists and is not empty; old_string must not be empty.`);
    await writeNoFollow(landing, new_string);
    return { ok: true, output: `Wrote ${path}`, response: response(1), wrote: path };
  }
  const count = countOccurrences(content, old_string);
  if (count === 0) {
    return fail(
      `old_string was not found in ${path}. It must match the file exactly, including whitespace and indentation; Read the file to check.`,
    );
  }
  if (count > 1 && !replace_all) {
    return fail(
      `old_string occurs ${count} times in ${path}. Include more surrounding lines to make it unique, or set replace_all to true.`,
    );
  }
  const first = content.indexOf(old_string);
  // split/join rather than String.replace: no `$&`-style patterns in new_string.
  const updated = replace_all
    ? content.split(old_string).join(new_string)
    : content.slice(0, first) + new_string + content.slice(first + old_string.length);
  await writeNoFollow(landing, updated);
  const replaced = replace_all ? count : 1;
  return {
    ok: true,
    output: `Replaced ${plural(replaced, "occurrence")} in ${path}:\n${snippet(updated, first, new_string.length)}`,
    response: response(replaced),
    wrote: path,
  };
}

export function editTool(): Tool {
  return defineTool({
    name: "Edit",
    description:
      "Replaces old_string with new_string in a file. old_string must match exactly and occur once, " +
      "unless replace_all is true. With an empty old_string, creates a file that does not exist yet.",
    input,
    inputSchema: BUILTIN_INPUT_SCHEMAS.Edit,
    async execute(fields, context) {
      const path = resolvePath(context.cwd, fields.file_path);
      // Read and written where it lands (links resolved), as the permission check judged it.
      const landing = landingAsJudged(path, context.landing);
      if (!landing.ok) return fail(landing.reason);
      try {
        return await edit(path, landing.path, fields);
      } catch (error) {
        if (error instanceof NotFollowedError) return fail(error.message);
        throw error;
      }
    },
  });
}
