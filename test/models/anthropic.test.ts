import { generateText, jsonSchema, streamText, tool } from "ai";
import { afterEach, describe, expect, test } from "vitest";
import { ANTHROPIC_API_URL, anthropicBaseUrl } from "../../source/models/anthropic.js";
import { ModelConfigError, resolveModel } from "../../source/models/resolve.js";
import {
  type FakeAnthropicScript,
  type FakeAnthropicServer,
  startFakeAnthropic,
  toolResultsOf,
} from "../support/fake-anthropic-server.js";

let server: FakeAnthropicServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const cwd = "/nonexistent-project";

function configError(options: Parameters<typeof resolveModel>[0]): ModelConfigError {
  try {
    resolveModel(options);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelConfigError);
    return error as ModelConfigError;
  }
  throw new Error("expected a ModelConfigError");
}

async function serve(script: FakeAnthropicScript, env: Record<string, string> = {}) {
  server = await startFakeAnthropic(script);
  return resolveModel({
    spec: "anthropic:claude-test",
    env: { ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_BASE_URL: server.url, ...env },
    cwd,
  });
}

const bash = tool({
  description: "Run a shell command",
  inputSchema: jsonSchema<{ command: string }>({
    type: "object",
    properties: { command: { type: "string" } },
    required: ["command"],
  }),
});

/** The error a streamed request ends with (the AI SDK reports it as a stream part). */
async function streamFailure(model: ReturnType<typeof resolveModel>["model"], maxRetries = 0) {
  const result = streamText({ model, prompt: "hi", maxRetries, onError: () => {} });
  for await (const part of result.stream) if (part.type === "error") return part.error;
  return undefined;
}

describe("anthropic: model specs", () => {
  test("anthropic:MODEL resolves to the Messages API, named by the model", () => {
    const { model, modelId } = resolveModel({
      spec: "anthropic:claude-sonnet-4-5",
      env: { ANTHROPIC_API_KEY: "sk-ant" },
      cwd,
    });
    expect(modelId).toBe("claude-sonnet-4-5");
    expect(typeof model === "object" && model.provider).toBe("anthropic.messages");
    expect(typeof model === "object" && model.modelId).toBe("claude-sonnet-4-5");
  });

  test("no key: one paragraph naming ANTHROPIC_API_KEY and the alternatives", () => {
    const error = configError({ spec: "anthropic:claude-sonnet-4-5", env: {}, cwd });
    expect(error.message).toMatch(/^No Anthropic API key: ANTHROPIC_API_KEY is not set, /);
    expect(error.message).toContain("anthropic:claude-sonnet-4-5");
    expect(error.message).toContain("OPENAI_API_KEY");
    expect(error.message).toContain("--model replay:");
    expect(error.message).not.toContain("\n");
    expect(error.badInput).toBe(false);
    // A blank key is no key; an OpenAI key is not an Anthropic one.
    configError({
      spec: "anthropic:claude-sonnet-4-5",
      env: { ANTHROPIC_API_KEY: "  ", OPENAI_API_KEY: "sk" },
      cwd,
    });
  });

  test("anthropic: without a model name, and a bad ANTHROPIC_BASE_URL, are configuration errors", () => {
    const env = { ANTHROPIC_API_KEY: "k" };
    expect(configError({ spec: "anthropic:", env, cwd }).message).toContain(
      "names no model. Use e.g. --model anthropic:claude-sonnet-4-5",
    );
    const bad = configError({
      spec: "anthropic:claude-test",
      env: { ...env, ANTHROPIC_BASE_URL: "api.anthropic.com" },
      cwd,
    });
    expect(bad.message).toBe(
      'ANTHROPIC_BASE_URL "api.anthropic.com" must be an http(s) URL, e.g. https://api.anthropic.com. Fix or unset ANTHROPIC_BASE_URL.',
    );
    expect(bad.badInput).toBe(true);
  });

  test("the OpenAI base URL does not apply: neither checked nor used, and anthropic: stays a provider", async () => {
    // A bad OPENAI_BASE_URL is no error for an Anthropic model: it is not used.
    expect(
      resolveModel({
        spec: "anthropic:claude-test",
        env: { ANTHROPIC_API_KEY: "k", OPENAI_BASE_URL: "ftp://x" },
        cwd,
      }).modelId,
    ).toBe("claude-test");
    // With --base-url (or the baseUrl setting) the request still goes to ANTHROPIC_BASE_URL.
    server = await startFakeAnthropic([{ text: "from anthropic" }]);
    const { model } = resolveModel({
      spec: "anthropic:claude-test",
      baseUrl: "http://127.0.0.1:9/v1",
      env: { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: server.url },
      cwd,
    });
    expect(await streamText({ model, prompt: "hi", maxRetries: 0 }).text).toBe("from anthropic");
    expect(server.requests).toHaveLength(1);
  });
});

describe("ANTHROPIC_BASE_URL", () => {
  test("takes Claude Code's form (no /v1) and the AI SDK's (with /v1)", () => {
    expect(anthropicBaseUrl(undefined)).toBeUndefined();
    expect(anthropicBaseUrl("  ")).toBeUndefined();
    expect(anthropicBaseUrl("https://api.anthropic.com")).toBe(ANTHROPIC_API_URL);
    expect(anthropicBaseUrl("https://api.anthropic.com/v1/")).toBe(ANTHROPIC_API_URL);
    expect(anthropicBaseUrl(" http://localhost:4000/ ")).toBe("http://localhost:4000/v1");
    expect(anthropicBaseUrl("https://gw.example/acct/anthropic")).toBe(
      "https://gw.example/acct/anthropic/v1",
    );
  });

  test("with ANTHROPIC_BASE_URL the key is optional (a proxy may add its own)", async () => {
    server = await startFakeAnthropic([{ text: "no key needed" }]);
    const { model } = resolveModel({
      spec: "anthropic:claude-test",
      env: { ANTHROPIC_BASE_URL: server.url },
      cwd,
    });
    expect(await streamText({ model, prompt: "hi", maxRetries: 0 }).text).toBe("no key needed");
    expect(server.requests[0]?.headers["x-api-key"]).toBe("acai-no-key");
  });
});

describe("anthropic: over HTTP against the scripted Messages server", () => {
  test("streams text and a tool call, with usage, and sends the tool result back", async () => {
    const { model } = await serve([
      {
        text: "Let me look.",
        toolCalls: [{ name: "Bash", input: { command: "ls -la" }, id: "toolu_01" }],
        usage: { inputTokens: 40, outputTokens: 9 },
      },
      { text: "Two files.", usage: { inputTokens: 60, outputTokens: 4 } },
    ]);
    const first = streamText({
      model,
      instructions: "You are acai.",
      prompt: "what is here?",
      tools: { Bash: bash },
      maxRetries: 0,
    });
    expect(await first.text).toBe("Let me look.");
    expect(await first.toolCalls).toEqual([
      expect.objectContaining({
        toolCallId: "toolu_01",
        toolName: "Bash",
        input: { command: "ls -la" },
      }),
    ]);
    expect(await first.finishReason).toBe("tool-calls");
    expect(await first.usage).toMatchObject({ inputTokens: 40, outputTokens: 9, totalTokens: 49 });

    const request = server?.requests[0];
    expect(request?.path).toBe("/v1/messages");
    expect(request?.headers["x-api-key"]).toBe("sk-ant-test");
    expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.body).toMatchObject({
      model: "claude-test",
      stream: true,
      system: [{ type: "text", text: "You are acai." }],
      messages: [{ role: "user", content: [{ type: "text", text: "what is here?" }] }],
      tools: [
        expect.objectContaining({
          name: "Bash",
          description: "Run a shell command",
          input_schema: expect.objectContaining({ required: ["command"] }),
        }),
      ],
    });
    expect(request?.body?.max_tokens).toEqual(expect.any(Number));

    const second = streamText({
      model,
      messages: [
        { role: "user", content: "what is here?" },
        ...(await first.response).messages,
        {
          role: "tool",
          content: [
            {
              type: "tool-result",
              toolCallId: "toolu_01",
              toolName: "Bash",
              output: { type: "text", value: "a.txt\nb.txt" },
            },
          ],
        },
      ],
      tools: { Bash: bash },
      maxRetries: 0,
    });
    expect(await second.text).toBe("Two files.");
    expect(toolResultsOf(server?.requests[1]?.body)).toEqual([
      { toolUseId: "toolu_01", text: "a.txt\nb.txt", isError: false },
    ]);
  });

  test("a non-streaming request gets one message object", async () => {
    const { model } = await serve([{ text: "whole answer" }]);
    const result = await generateText({ model, prompt: "hi", maxRetries: 0 });
    expect(result.text).toBe("whole answer");
    expect(result.usage).toMatchObject({ inputTokens: 12, outputTokens: 7 });
    expect(server?.requests[0]?.body?.stream).toBeUndefined();
  });

  test("401: an error naming ANTHROPIC_API_KEY and what the server said, no retry", async () => {
    const { model } = await serve([{ status: 401 }, { text: "should not be asked" }]);
    const error = await streamFailure(model, 2);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe(
      "the Anthropic API refused the API key (401, server said: invalid x-api-key): check ANTHROPIC_API_KEY",
    );
    expect(server?.requests).toHaveLength(1);
  });

  test("404: names the model and ANTHROPIC_BASE_URL", async () => {
    const { model } = await serve([{ status: 404, errorMessage: "model: claude-test" }]);
    const error = await streamFailure(model);
    expect((error as Error).message).toMatch(
      /^the Anthropic API does not know this model or URL \(404, server said: model: claude-test\): check the model name .*ANTHROPIC_BASE_URL/,
    );
  });

  test("529 overloaded is retried (it stays an APICallError), before or inside the stream", async () => {
    const { model } = await serve([
      { status: 529, retryAfterMs: 0 },
      { streamError: "overloaded_error", retryAfterMs: 0 },
      { text: "third time lucky" },
    ]);
    const result = streamText({ model, prompt: "hi", maxRetries: 2 });
    expect(await result.text).toBe("third time lucky");
    expect(server?.requests).toHaveLength(3);
  });

  test("an error event after message_start ends the stream with the server's type and message", async () => {
    const { model } = await serve([
      { streamError: "overloaded_error", streamErrorAt: "after_message_start" },
    ]);
    const error = await streamFailure(model, 2);
    expect(error).toMatchObject({ statusCode: 529, message: "Overloaded" });
    expect(server?.requests).toHaveLength(1);
  });

  test("529 past the retries: the status and the server's message reach the caller", async () => {
    const { model } = await serve([{ status: 529, retryAfterMs: 0 }]);
    const error = await streamFailure(model);
    expect(error).toMatchObject({ statusCode: 529, message: "Overloaded" });
  });
});
