import { mkdir, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { z } from "zod";
import { defineTool } from "../define.js";
import { plural, resolvePath, splitLines } from "../text.js";
import type { Tool } from "../types.js";

const input = z.object({
  file_path: z
    .string()
    .min(1)
    .describe("Path of the file to write (absolute, or relative to the project)"),
  content: z.string().describe("The complete new content of the file"),
});

export interface WriteResponse {
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
    async execute({ file_path, content }, context) {
      const path = resolvePath(context.cwd, file_path);
      const existing = await stat(path).catch(() => undefined);
      if (existing?.isDirectory()) {
        return {
          ok: false,
          error: `${path} is a directory; give a file path.`,
          interrupted: false,
        };
      }
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, content, "utf8");
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
