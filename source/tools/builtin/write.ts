import { z } from "zod";
import { defineTool } from "../define.js";
import { landingAsJudged } from "../landing.js";
import { plural, resolvePath, splitLines } from "../text.js";
import type { Tool } from "../types.js";
import { NotFollowedError, writeNoFollow } from "../write-no-follow.js";
import { BUILTIN_INPUT_SCHEMAS } from "./input-schemas.generated.js";

/** Built at its first parse: the model is handed the generated JSON Schema (decision 0060). */
export const input = z.lazy(() =>
  z.object({
    file_path: z
      .string()
      .min(1)
      .describe("Path of the file to write (absolute, or relative to the project)"),
    content: z.string().describe("The complete new content of the file"),
  }),
);

interface WriteResponse {
  type: "create" | "update";
  filePath: string;
  content: string;
}

export function writeTool(): Tool {
  return defineTool({
    name: "Write",
    description:
      "Writes a file with the given content, replacing it if it exists and creating missing parent directories. " +
      "Prefer Edit for changing part of an existing file.",
    input,
    inputSchema: BUILTIN_INPUT_SCHEMAS.Write,
    async execute({ file_path, content }, context) {
      const given = resolvePath(context.cwd, file_path);
      // Written where it lands (links resolved), as the permission check judged it; no link followed after.
      const landing = landingAsJudged(given, context.landing);
      if (!landing.ok) return { ok: false, error: landing.reason, interrupted: false };
      const path = given;
      let existing: boolean;
      try {
        existing = (await writeNoFollow(landing.path, content)).existed;
      } catch (error) {
        if (error instanceof NotFollowedError) {
          return { ok: false, error: error.message, interrupted: false };
        }
        throw error;
      }
      const type = existing ? "update" : "create";
      const lines = content === "" ? 0 : splitLines(content).length;
      const verb = type === "create" ? "Created" : "Overwrote";
      const response: WriteResponse = { type, filePath: path, content };
      return {
        ok: true,
        output: `${verb} ${path} (${plural(lines, "line")}, ${Buffer.byteLength(content)} bytes)`,
        response,
        wrote: path,
      };
    },
  });
}
