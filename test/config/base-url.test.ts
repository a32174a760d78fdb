import { describe, expect, it } from "vitest";
import { dropBlankBaseUrls, isHttpUrl } from "../../source/config/base-url.js";

describe("base URLs", () => {
  it("drops base-URL variables that are set but blank, and nothing else", () => {
    const env: Record<string, string | undefined> = {
      OPENAI_BASE_URL: "",
      ANTHROPIC_BASE_URL: "  ",
      OPENAI_API_KEY: "",
      OTHER: "x",
    };
    expect(dropBlankBaseUrls(env)).toEqual(["OPENAI_BASE_URL", "ANTHROPIC_BASE_URL"]);
    expect(env).toEqual({ OPENAI_API_KEY: "", OTHER: "x" });
  });

  it("keeps a set base URL, good or bad (a bad one is reported where it is read)", () => {
    const env = { OPENAI_BASE_URL: "notaurl", ANTHROPIC_BASE_URL: "http://localhost:1" };
    expect(dropBlankBaseUrls(env)).toEqual([]);
    expect(env.OPENAI_BASE_URL).toBe("notaurl");
    expect(isHttpUrl(env.OPENAI_BASE_URL)).toBe(false);
  });
});
