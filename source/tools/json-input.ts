import type { InputValidation, JsonSchema } from "./types.js";

/**
 * Deliberately small check of an input against a dynamic tool's JSON Schema:
 * an object, `required` keys present, primitive `type`s of declared properties.
 * The tool itself is the authority on anything deeper.
 */
export function checkJsonInput(
  toolName: string,
  schema: JsonSchema,
  input: unknown,
): InputValidation {
  const bad = (error: string): InputValidation => ({
    ok: false,
    error: `Invalid input for ${toolName}: ${error}`,
  });
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return bad("input: expected an object");
  }
  const record = input as Record<string, unknown>;
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) {
    if (typeof key === "string" && record[key] === undefined) return bad(`${key}: required`);
  }
  const properties = isRecord(schema.properties) ? schema.properties : {};
  for (const [key, value] of Object.entries(record)) {
    const property = properties[key];
    if (!isRecord(property) || value === undefined) continue;
    const types = typeList(property.type);
    if (types.length > 0 && !types.some((t) => hasType(value, t))) {
      return bad(`${key}: expected ${types.join(" or ")}, got ${describe(value)}`);
    }
  }
  return { ok: true, value: input };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function typeList(type: unknown): string[] {
  if (typeof type === "string") return [type];
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === "string");
  return [];
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isRecord(value);
    case "null":
      return value === null;
    default:
      return true; // an unknown type name: not ours to judge
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}
