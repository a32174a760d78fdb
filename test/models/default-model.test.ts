/**
 * Which provider a session gets when no model is named, and what the user is
 * told when none is set up: every provider's step, what is set, and an
 * offline hint whose replay file exists wherever acai is installed.
 */
import { existsSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  DEFAULT_ANTHROPIC_MODEL_ID,
  DEFAULT_OPENAI_MODEL_ID,
  defaultSpec,
  noModelMessage,
  whatIsSet,
} from "../../source/models/default-model.js";
import { demoReplayFile, offlineHint } from "../../source/models/offline-hint.js";
import { ModelConfigError, resolveModel } from "../../source/models/resolve.js";

const cwd = "/nonexistent-cwd";

function configError(options: Parameters<typeof resolveModel>[0]): ModelConfigError {
  try {
    resolveModel(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError);
    return error as ModelConfigError;
  }
  throw new Error("expected a ModelConfigError");
}

describe("the default model", () => {
  test("only ANTHROPIC_API_KEY: an Anthropic model, by the Messages API", () => {
    expect(defaultSpec({ ANTHROPIC_API_KEY: "sk-ant" }, false)).toBe(
      `anthropic:${DEFAULT_ANTHROPIC_MODEL_ID}`,
    );
    const { model, modelId } = resolveModel({ env: { ANTHROPIC_API_KEY: "sk-ant" }, cwd });
    expect(modelId).toBe(DEFAULT_ANTHROPIC_MODEL_ID);
    expect(typeof model === "object" && model.provider).toBe("anthropic.messages");
    // A proxy that adds its own key: ANTHROPIC_BASE_URL alone also chooses Anthropic.
    expect(defaultSpec({ ANTHROPIC_BASE_URL: "http://127.0.0.1:4000" }, false)).toBe(
      `anthropic:${DEFAULT_ANTHROPIC_MODEL_ID}`,
    );
  });

  test("OpenAI's variables keep OpenAI the default, even beside Anthropic's", () => {
    const both = { ANTHROPIC_API_KEY: "sk-ant", OPENAI_API_KEY: "sk" };
    expect(defaultSpec(both, false)).toBe(`openai:${DEFAULT_OPENAI_MODEL_ID}`);
    expect(defaultSpec({ ANTHROPIC_API_KEY: "sk-ant" }, true)).toBe(
      `openai:${DEFAULT_OPENAI_MODEL_ID}`,
    );
    expect(resolveModel({ env: both, cwd }).modelId).toBe(DEFAULT_OPENAI_MODEL_ID);
  });

  test("blank variables are unset: no default, and the message says none is set", () => {
    const env = { ANTHROPIC_API_KEY: " ", OPENAI_API_KEY: "" };
    expect(defaultSpec(env, false)).toBeUndefined();
    expect(whatIsSet(env)).toBe(
      "none of ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY, OPENAI_BASE_URL is set",
    );
    expect(whatIsSet({ ANTHROPIC_API_KEY: "k", OPENAI_BASE_URL: "http://x" })).toBe(
      "ANTHROPIC_API_KEY and OPENAI_BASE_URL are set",
    );
  });
});

describe("the no-model message", () => {
  test("one paragraph: what is set, then each provider's step and the offline hint", () => {
    const error = configError({ env: {}, cwd });
    expect(error.message).toBe(noModelMessage({}));
    expect(error.message).toMatch(/^No model is configured: none of ANTHROPIC_API_KEY, /);
    for (const part of [
      "for Anthropic, set ANTHROPIC_API_KEY",
      "for OpenAI, set OPENAI_API_KEY",
      "pass --base-url (or set OPENAI_BASE_URL)",
      offlineHint(),
    ]) {
      expect(error.message).toContain(part);
    }
    expect(error.message).not.toContain("\n");
    expect(error.badInput).toBe(false);
  });

  test("an OpenAI model with only Anthropic's key says so and how to use Anthropic", () => {
    const error = configError({ spec: "gpt-4.1", env: { ANTHROPIC_API_KEY: "sk-ant" }, cwd });
    expect(error.message).toContain("OPENAI_API_KEY is not set");
    expect(error.message).toContain("ANTHROPIC_API_KEY is set");
    expect(error.message).toContain("--model anthropic:MODEL");
  });

  test("an Anthropic model with only OpenAI's key says so and how to use OpenAI", () => {
    const error = configError({ spec: "anthropic:claude-x", env: { OPENAI_API_KEY: "sk" }, cwd });
    expect(error.message).toMatch(/^No Anthropic API key: ANTHROPIC_API_KEY is not set/);
    expect(error.message).toContain("OPENAI_API_KEY is set");
    expect(error.message).toContain("--model openai:MODEL");
  });
});

describe("the offline hint", () => {
  test("names the demo replay file by an absolute path that exists", () => {
    const file = demoReplayFile();
    expect(file.startsWith("/")).toBe(true);
    expect(file.endsWith("/examples/replay/demo.json")).toBe(true);
    expect(existsSync(file)).toBe(true);
    expect(offlineHint()).toBe(`--model replay:${file}`);
    expect(configError({ spec: "replay:", env: {}, cwd }).message).toContain(offlineHint());
  });
});
