import { describe, expect, it } from "vitest";
import { buildHookEnvironment, looksSecret } from "../../../source/hooks/contract/environment.js";
import { makeHook } from "../support.js";

describe("hook environment", () => {
  const parentEnv = {
    PATH: "/usr/bin",
    HOME: "/home/me",
    OPENAI_API_KEY: "sk-1",
    GITHUB_TOKEN: "gh",
    slack_token: "lower",
    DB_PASSWORD: "pw",
    AWS_SECRET: "s",
    GCP_CREDENTIALS: "c",
    TOKENIZER: "not a secret",
    PWD: "/p",
    SSH_AUTH_SOCK: "/tmp/agent",
    DATABASE_URL: "postgres://app:pw@db/app",
    ACAI_SESSION_ID: "the parent's",
  };

  it("drops secrets by the shared policy, case-insensitively, and keeps the rest", () => {
    const env = buildHookEnvironment({
      parentEnv,
      hook: makeHook(),
      projectDir: "/p",
      sessionId: "s1",
      event: "before_tool",
    });
    for (const secret of [
      "OPENAI_API_KEY",
      "GITHUB_TOKEN",
      "slack_token",
      "DB_PASSWORD",
      "AWS_SECRET",
      "GCP_CREDENTIALS",
      "SSH_AUTH_SOCK",
      "DATABASE_URL",
    ]) {
      expect(env[secret]).toBeUndefined();
    }
    expect(env.PATH).toBe("/usr/bin");
    expect(env.TOKENIZER).toBe("not a secret");
    expect(env.PWD).toBe("/p");
    // SESSION is a secret word, but acai's own variable is set after scrubbing.
    expect(env.ACAI_SESSION_ID).toBe("s1");
  });

  it("keeps a secret the hook lists in env", () => {
    const env = buildHookEnvironment({
      parentEnv,
      hook: makeHook({ env: ["GITHUB_TOKEN"] }),
      projectDir: "/p",
      sessionId: "s1",
      event: "before_tool",
    });
    expect(env.GITHUB_TOKEN).toBe("gh");
    expect(env.OPENAI_API_KEY).toBeUndefined();
  });

  it("adds acai's variables", () => {
    const env = buildHookEnvironment({
      parentEnv: {},
      hook: makeHook(),
      projectDir: "/proj",
      sessionId: "sess",
      event: "after_tool",
    });
    expect(env).toEqual({
      ACAI_PROJECT_DIR: "/proj",
      CLAUDE_PROJECT_DIR: "/proj",
      ACAI_SESSION_ID: "sess",
      ACAI_HOOK_EVENT: "after_tool",
      HOOK_ACTION: "execute",
    });
  });

  it("recognizes the bare names too", () => {
    expect(looksSecret("API_KEY")).toBe(true);
    expect(looksSecret("TOKEN")).toBe(true);
    expect(looksSecret("KEYBOARD")).toBe(false);
    expect(looksSecret("PWD")).toBe(false);
    expect(looksSecret("MYSQL_PWD")).toBe(true);
  });
});
