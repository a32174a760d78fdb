/**
 * A value acai parses once at start-up is validated without zod's compiled fast
 * path (source/shared/parsed-once.ts, decision 0061): the answer — data or the
 * issues a user is told — must be exactly what the compiled path gives.
 */
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { SettingsSchema } from "../../source/config/settings-schema.js";
import { ExecutableMetadataSchema } from "../../source/hooks/contract/schemas/metadata.js";
import {
  SettingsHookEntrySchema,
  SettingsHookGroupSchema,
} from "../../source/hooks/contract/schemas/settings-hooks.js";
import { PARSED_ONCE } from "../../source/shared/parsed-once.js";

/** Both ways, in either order (a schema compiles its fast path at its first compiled parse). */
function bothWays(schema: z.ZodType, value: unknown) {
  const once = schema.safeParse(value, PARSED_ONCE);
  const compiled = schema.safeParse(value);
  return { once, compiled, onceAgain: schema.safeParse(value, PARSED_ONCE) };
}

const SETTINGS: unknown[] = [
  { model: "openai:gpt", baseUrl: "http://127.0.0.1:1/v1", hookDefaults: { timeoutMs: 5000 } },
  { permissions: { allow: ["Bash(ls)"], deny: ["Read(.env)"], defaultMode: "acceptEdits" } },
  { hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] }, extra: 1 },
  { model: 42 },
  { permissions: { allow: "Bash(ls)" } },
  { hookDefaults: { timeoutMs: -1 } },
  { sandbox: { enabled: "yes" } },
  [],
  null,
];

const ENTRIES: unknown[] = [
  { type: "command", command: "echo '{}'", timeout: 5, env: ["HOME"] },
  { type: "http", url: "http://127.0.0.1:9/hook" },
  { type: "command" },
  { type: "prompt", prompt: "judge" },
  { type: "nope", command: "x" },
  { type: "command", command: "x", timeout: "5" },
];

const GROUPS: unknown[] = [
  { matcher: "Bash", hooks: [{ type: "command", command: "a" }] },
  { hooks: [] },
  { matcher: 3, hooks: [{ type: "command", command: "a" }] },
  { matcher: "Bash" },
];

const METADATA: unknown[] = [
  { name: "guard", events: ["before_tool"], matcher: { tool: "Bash" }, timeout_ms: 1000 },
  { events: ["PreToolUse", "session_start"], env: ["TOKEN"], mode: "persistent" },
  { events: [] },
  { events: ["no_such_event"] },
  { name: 1, events: ["before_tool"], matcher: { tool: "Bash", nope: 1 } },
];

describe("a value parsed once", () => {
  it.each([
    ["settings files", SettingsSchema, SETTINGS],
    ["settings hook entries", SettingsHookEntrySchema, ENTRIES],
    ["settings hook groups", SettingsHookGroupSchema, GROUPS],
    ["executables' metadata", ExecutableMetadataSchema, METADATA],
  ] as const)("gets the compiled parse's data and issues: %s", (_what, schema, values) => {
    let failures = 0;
    for (const value of values) {
      const { once, compiled, onceAgain } = bothWays(schema as z.ZodType, value);
      expect(once.success).toBe(compiled.success);
      expect(once.data).toEqual(compiled.data);
      expect(once.error?.issues).toEqual(compiled.error?.issues);
      expect(onceAgain).toEqual(once);
      if (!once.success) failures++;
    }
    // The lists hold both kinds: a check that only ever saw valid values would prove little.
    expect(failures).toBeGreaterThan(0);
    expect(failures).toBeLessThan(values.length);
  });
});
