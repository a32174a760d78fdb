import { z } from "zod";
import type { InputValidation, JsonSchema, Tool, ToolContext, ToolResult } from "./types.js";
import { validateOnce } from "./validated-input.js";

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  /** `input` as JSON Schema, generated at build time (`input-schemas.generated.ts`, decision 0054). */
  inputSchema: JsonSchema;
  execute(input: z.output<S>, context: ToolContext): Promise<ToolResult>;
}

/** One line per problem, each naming the field at fault. */
export function formatZodError(toolName: string, error: z.ZodError): string {
  const problems = error.issues.map((issue) => {
    const field = issue.path.length > 0 ? issue.path.join(".") : "input";
    return `${field}: ${issue.message}`;
  });
  return `Invalid input for ${toolName}: ${problems.join("; ")}`;
}

/** A zod input as the JSON Schema the model is given (the build's generator of tools' schemas uses it). */
export function toInputJsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io: "input" }) as JsonSchema;
  return rest;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A built-in tool from a zod schema. `execute` validates an input `validate`
 * has not seen (so a caller that skipped it still gets defaults and a clear
 * error; one it has seen is not parsed again) and turns an unexpected
 * exception into an `ok: false` result.
 */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  const validate = validateOnce((input: unknown): InputValidation => {
    const parsed = spec.input.safeParse(input);
    return parsed.success
      ? { ok: true, value: parsed.data }
      : { ok: false, error: formatZodError(spec.name, parsed.error) };
  });
  return {
    name: spec.name,
    description: spec.description,
    // A copy per tool, as when it was generated here: nothing shares one object.
    inputSchema: structuredClone(spec.inputSchema),
    validate,
    async execute(input, context) {
      const checked = validate(input);
      if (!checked.ok) return { ok: false, error: checked.error, interrupted: false };
      try {
        return await spec.execute(checked.value as z.output<S>, context);
      } catch (error) {
        return { ok: false, error: `${spec.name} failed: ${errorText(error)}`, interrupted: false };
      }
    },
  };
}
