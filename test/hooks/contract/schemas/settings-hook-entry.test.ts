/**
 * A settings hook entry whose `type` acai runs is validated by that type's schema
 * alone, so a file builds only the types it uses (decision 0063): the answer — data
 * or the issues a user is told — must be exactly the whole union's.
 */
import { describe, expect, it } from "vitest";
import {
  parseSettingsHookEntry,
  SettingsHookEntrySchema,
} from "../../../../source/hooks/contract/schemas/settings-hooks.js";
import { PARSED_ONCE } from "../../../../source/shared/parsed-once.js";

const ENTRIES: unknown[] = [
  { type: "command", command: "echo '{}'", timeout: 5, env: ["HOME"], if: "Bash(git push:*)" },
  { type: "command", command: "  " },
  { type: "command", command: "x", if: "Bash(" },
  { type: "command", command: "x", priority: 5000, failure: "sometimes", extra: true },
  { type: "command" },
  { type: "http", url: "http://127.0.0.1:9/hook", headers: { "X-A": "$TOKEN" } },
  { type: "http", url: "ftp://x", headers: { "bad name": "v\n" } },
  { type: "prompt", prompt: "judge", model: "openai:small" },
  { type: "prompt", prompt: "" },
  { type: "agent", prompt: "judge" },
  { type: "mcp_tool", server: "s", tool: "t", input: { a: 1 } },
  { type: "mcp_tool", server: "", tool: 3 },
  // Not one acai runs, missing, not a string, inherited-looking: the union's own words.
  { type: "nope", command: "x" },
  { command: "x" },
  { type: 1 },
  { type: "constructor" },
  { type: "__proto__" },
  { type: "toString", command: "x" },
  [{ type: "command", command: "x" }],
  null,
  "command",
  42,
];

describe("parseSettingsHookEntry", () => {
  it("answers every entry exactly as the whole union does", () => {
    let failures = 0;
    for (const entry of ENTRIES) {
      const alone = parseSettingsHookEntry(entry);
      const union = SettingsHookEntrySchema.safeParse(entry, PARSED_ONCE);
      expect(alone.success, JSON.stringify(entry)).toBe(union.success);
      if (union.success) expect(alone.data, JSON.stringify(entry)).toEqual(union.data);
      else {
        failures++;
        expect(alone.error?.issues, JSON.stringify(entry)).toEqual(union.error.issues);
      }
    }
    // Both kinds are compared: most of the entries above are refused.
    expect(failures).toBeGreaterThan(10);
  });

  it("says which types acai runs when the type is unknown", () => {
    const result = parseSettingsHookEntry({ type: "nope" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'hook type "nope" is not one acai runs; expected one of "command", "http", "prompt", "agent", "mcp_tool"',
    );
  });
});
