import { relative } from "node:path";
import { z } from "zod";
import { defineTool } from "../define.js";
import { listFiles, mapSliced, mtimeOrZero, statOrUndefined } from "../files.js";
import { plural, resolvePath } from "../text.js";
import type { Tool } from "../types.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";

const GLOB_MAX_RESULTS = 100;

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() =>
  z.object({
    pattern: z.string().min(1).describe('Glob pattern, e.g. "**/*.ts" or "src/**/index.{js,ts}"'),
    path: z.string().optional().describe("Directory to search in (default: the project directory)"),
  }),
);

interface GlobResponse {
  filenames: string[];
  numFiles: number;
  truncated: boolean;
  durationMs: number;
}

export function globTool(): Tool {
  return defineTool({
    name: "Glob",
    description:
      "Finds files by glob pattern (dotfiles included; .git, node_modules and files ignored by .gitignore skipped). " +
      `Returns absolute paths, most recently modified first, at most ${GLOB_MAX_RESULTS}.`,
    input,
    inputSchema: BUILTIN_INPUT_SCHEMAS.Glob,
    async execute({ pattern, path }, context) {
      const started = performance.now();
      const root = resolvePath(context.cwd, path ?? ".");
      const info = await statOrUndefined(root);
      if (!info?.isDirectory()) {
        return { ok: false, error: `Directory not found: ${root}`, interrupted: false };
      }
      // Patterns are matched relative to the search directory.
      const relativePattern = pattern.startsWith("/") ? relative(root, pattern) || "." : pattern;
      const files = await listFiles(root, relativePattern, {
        signal: context.signal,
        projectDir: context.cwd,
        // Files the session's Read deny (or ask) rules catch are not listed.
        readable: context.readable,
      });
      const withTimes = await mapSliced(
        files,
        (file) => ({ file, mtime: mtimeOrZero(file) }),
        context.signal,
      );
      withTimes.sort(
        (a, b) => b.mtime - a.mtime || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
      );
      const truncated = withTimes.length > GLOB_MAX_RESULTS;
      const filenames = withTimes.slice(0, GLOB_MAX_RESULTS).map((f) => f.file);
      const response: GlobResponse = {
        filenames,
        numFiles: files.length,
        truncated,
        durationMs: Math.round(performance.now() - started),
      };
      if (filenames.length === 0) return { ok: true, output: "No files found", response };
      let output = filenames.join("\n");
      if (truncated) {
        output += `\n(showing the ${GLOB_MAX_RESULTS} most recently modified of ${plural(files.length, "file")}; use a narrower pattern or path)`;
      }
      return { ok: true, output, response };
    },
  });
}
