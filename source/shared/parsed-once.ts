/**
 * zod's parse options for a value acai parses once per session at start-up — a
 * settings file, the trust record, a hook's metadata, a cache file: without
 * zod's compiled fast path. zod builds an object schema's fast parser with
 * `new Function` at its first parse; V8's compile cache cannot keep that code,
 * so it is parsed and compiled again on every start, and it pays only for a
 * schema that parses many values. Validation is the same either way
 * (decision 0061).
 */
export const PARSED_ONCE = { jitless: true } as const;
