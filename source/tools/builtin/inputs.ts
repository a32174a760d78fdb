/**
 * The built-in tools' zod inputs by tool name: what the model may send each.
 * `npm run build` turns them into the JSON Schemas the tools hand the model
 * (`scripts/generate-tool-schemas.mjs` → `input-schemas.generated.ts`), so no
 * JSON Schema is generated at start-up; a test checks that the generated
 * module matches these (decision 0054).
 */
import type { z } from "zod";
import { input as bash } from "./bash.js";
import { input as edit } from "./edit.js";
import { input as glob } from "./glob.js";
import { input as grep } from "./grep.js";
import { input as read } from "./read.js";
import { input as task } from "./task.js";
import { input as write } from "./write.js";

export const BUILTIN_INPUTS: Readonly<Record<string, z.ZodType>> = {
  Bash: bash,
  Read: read,
  Write: write,
  Edit: edit,
  Glob: glob,
  Grep: grep,
  Task: task,
};
