import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { generateText, streamText } from "ai";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { DEFAULT_MODEL_ID, ModelConfigError, resolveModel } from "../../source/models/resolve.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";

let dir: string;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-resolve-"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

function configError(options: Parameters<typeof resolveModel>[0]): string {
  try {
    resolveModel(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError);
    return (error as Error).message;
  }
  throw new Error("expected a ModelConfigError");
}

async function ask(options: Parameters<typeof resolveModel>[0]) {
  const { model } = resolveModel(options);
  const result = streamText({ model, prompt: "hello", maxRetries: 0 });
  return result.text;
}

describe("resolveModel", () => {
  test("no key and no base URL: one paragraph saying what to set", () => {
    const message = configError({ env: {}, cwd: dir });
    expect(message).toContain("OPENAI_API_KEY");
    expect(message).toContain("--base-url");
    expect(message).toContain("OPENAI_BASE_URL");
    expect(message).toContain("--model replay:");
    expect(message).not.toContain("\n");
  });

  test("defaults to gpt-5.1 on the Responses API with a key", () => {
    const { model, modelId } = resolveModel({ env: { OPENAI_API_KEY: "sk-x" }, cwd: dir });
    expect(modelId).toBe(DEFAULT_MODEL_ID);
    expect(modelId).toBe("gpt-5.1");
    expect(typeof model === "object" && model.provider).toBe("openai.responses");
    const bare = resolveModel({ spec: "gpt-4.1", env: { OPENAI_API_KEY: "sk-x" }, cwd: dir });
    expect(bare.modelId).toBe("gpt-4.1");
  });

  test("a base URL selects the Chat Completions API and works without a key", async () => {
    server = await startFakeOpenAI([{ text: "from chat" }, { text: "from env url" }]);
    expect(await ask({ spec: "openai:llama3.1", baseUrl: server.url, env: {}, cwd: dir })).toBe(
      "from chat",
    );
    expect(server.requests[0]?.path).toBe("/v1/chat/completions");
    expect(server.requests[0]?.body?.model).toBe("llama3.1");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer acai-no-key");

    expect(
      await ask({
        spec: "llama3.1:8b",
        env: { OPENAI_BASE_URL: `${server.url}/`, OPENAI_API_KEY: "sk-local" },
        cwd: dir,
      }),
    ).toBe("from env url");
    expect(server.requests[1]?.path).toBe("/v1/chat/completions");
    expect(server.requests[1]?.body?.model).toBe("llama3.1:8b");
    expect(server.requests[1]?.headers.authorization).toBe("Bearer sk-local");
  });

  test("openai-responses: forces the Responses API, without a server-side store", async () => {
    server = await startFakeOpenAI([{ text: "from responses" }, { text: "again" }]);
    const options = { spec: "openai-responses:m1", baseUrl: server.url, env: {}, cwd: dir };
    expect(await ask(options)).toBe("from responses");
    expect(server.requests[0]?.path).toBe("/v1/responses");
    expect(server.requests[0]?.body?.store).toBe(false);
    const { model } = resolveModel(options);
    await generateText({ model, prompt: "non-streaming", maxRetries: 0 });
    expect(server.requests[1]?.body?.store).toBe(false);
  });

  test("openai-chat: forces the Chat Completions API", () => {
    const { model, modelId } = resolveModel({
      spec: "openai-chat:gpt-4o",
      env: { OPENAI_API_KEY: "sk-x" },
      cwd: dir,
    });
    expect(modelId).toBe("gpt-4o");
    expect(typeof model === "object" && model.provider).toBe("openai.chat");
  });

  test("replay: resolves the file against cwd", async () => {
    await writeFile(path.join(dir, "s.json"), JSON.stringify({ turns: [{ text: "scripted" }] }));
    const { modelId } = resolveModel({ spec: "replay:s.json", env: {}, cwd: dir });
    expect(modelId).toBe("replay:s.json");
    expect(await ask({ spec: "replay:s.json", env: {}, cwd: dir })).toBe("scripted");
    expect(configError({ spec: "replay:missing.json", env: {}, cwd: dir })).toContain(
      path.join(dir, "missing.json"),
    );
    expect(configError({ spec: "replay:", env: {}, cwd: dir })).toContain("needs a file");
  });

  test("unknown providers and bad base URLs are configuration errors", () => {
    expect(configError({ spec: "gemini:pro", env: { OPENAI_API_KEY: "k" }, cwd: dir })).toMatch(
      /Unknown model provider "gemini".*openai:MODEL.*anthropic:MODEL.*replay:FILE/,
    );
    expect(configError({ spec: "openai:", env: { OPENAI_API_KEY: "k" }, cwd: dir })).toContain(
      "names no model",
    );
    expect(configError({ baseUrl: "localhost:11434", env: {}, cwd: dir })).toMatch(
      /The base URL "localhost:11434" must be an http\(s\) URL/,
    );
    expect(configError({ baseUrl: "not a url", env: {}, cwd: dir })).toContain(
      "must be an http(s) URL",
    );
    // The environment variable is named when it is the source, and flagged as the user's bad input.
    const fromEnv = (() => {
      try {
        resolveModel({ spec: "replay:s.json", env: { OPENAI_BASE_URL: "ftp://x" }, cwd: dir });
      } catch (error) {
        return error;
      }
    })();
    expect(fromEnv).toBeInstanceOf(ModelConfigError);
    expect((fromEnv as ModelConfigError).message).toMatch(/^OPENAI_BASE_URL "ftp:\/\/x" must be/);
    expect((fromEnv as ModelConfigError).badInput).toBe(true);
  });
});
