/** The `env` allow-list of every hook kind takes variable names only (they are shown at trust). */
import { describe, expect, it } from "vitest";
import {
  ExecutableMetadataSchema,
  HookMdFrontmatterSchema,
} from "../../../../source/hooks/contract/schemas/metadata.js";
import { SettingsHookEntrySchema } from "../../../../source/hooks/contract/schemas/settings-hooks.js";

const kinds = [
  [
    "describe metadata",
    (env: unknown) => ExecutableMetadataSchema.safeParse({ events: ["before_tool"], env }),
  ],
  [
    "HOOK.md frontmatter",
    (env: unknown) => HookMdFrontmatterSchema.safeParse({ trigger: "before_tool", env }),
  ],
  [
    "settings entry",
    (env: unknown) => SettingsHookEntrySchema.safeParse({ type: "command", command: "x", env }),
  ],
] as const;

describe.each(kinds)("env in %s", (_kind, parse) => {
  it("accepts variable names and defaults to none", () => {
    const ok = parse(["SLACK_TOKEN", "npm_config__authToken"]);
    expect(ok.success && ok.data.env).toEqual(["SLACK_TOKEN", "npm_config__authToken"]);
    const none = parse(undefined);
    expect(none.success && none.data.env).toEqual([]);
  });

  it.each([["A=B"], [""], ["WITH SPACE"], ["\u001b[8mX"], ["1ST"]])("rejects %j", (name) => {
    expect(parse([name]).success).toBe(false);
  });
});
