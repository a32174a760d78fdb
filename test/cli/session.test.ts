import { describe, expect, it } from "vitest";
import { brokenHookWarning, transcriptPathFor } from "../../source/cli/session.js";

describe("session helpers", () => {
  it("names a broken hook once", () => {
    const base = { file: "/h/settings.json", scope: "user", sourceKind: "settings" } as const;
    expect(
      brokenHookWarning({ ...base, name: "hooks.X", reason: 'hooks.X: unknown event "X"' }),
    ).toBe('hook hooks.X (/h/settings.json) is not loaded: unknown event "X"');
    expect(
      brokenHookWarning({ ...base, file: "/p/.acai/hooks/guard", reason: "not executable" }),
    ).toBe("hook guard (/p/.acai/hooks/guard) is not loaded: not executable");
  });

  it("puts the transcript under the transcripts dir, dated, named by session", () => {
    expect(transcriptPathFor("/a/transcripts", "abc", new Date("2026-11-21T23:59:00Z"))).toBe(
      "/a/transcripts/2026-11-21-abc.jsonl",
    );
  });
});
