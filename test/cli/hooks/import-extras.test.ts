import { describe, expect, it } from "vitest";
import { importExtras } from "../../../source/cli/hooks/import-extras.js";

describe("acai hooks import: what besides hooks and rules", () => {
  it("carries env and model, and names every other Claude Code key it leaves behind", () => {
    const extras = importExtras(
      {
        env: { FOO: "1", KEEP: "claude" },
        model: "sonnet",
        statusLine: {},
        includeCoAuthoredBy: false,
        hooks: {},
      },
      { env: { KEEP: "acai" } },
    );
    expect(extras.set).toEqual({
      env: { KEEP: "acai", FOO: "1" },
      model: "anthropic:claude-sonnet-4-5",
    });
    expect(extras.added).toEqual(["env.FOO", "model: anthropic:claude-sonnet-4-5"]);
    expect(extras.dropped).toEqual([
      "env.KEEP: the target already sets it (kept as it is)",
      "statusLine: a Claude Code setting acai has no equivalent for",
      "includeCoAuthoredBy: a Claude Code setting acai has no equivalent for",
    ]);
  });

  it("says when a model or env cannot be carried, and changes nothing for them", () => {
    const extras = importExtras({ model: "gpt-5", env: ["x"] }, {});
    expect(extras.set).toEqual({});
    expect(extras.dropped).toEqual([
      "env: not an object of variables",
      'model: "gpt-5" has no acai equivalent',
    ]);
  });
});
