import { APICallError, type LanguageModel } from "ai";
import { isHttpUrl } from "../config/base-url.js";
import { isSet, providerChoices, whatIsSet } from "./default-model.js";
import { ModelConfigError } from "./errors.js";
import { createModelFetch } from "./http/model-fetch.js";
import { lazyModel } from "./lazy-model.js";

/**
 * `--model anthropic:MODEL`: Anthropic's Messages API through `@ai-sdk/anthropic`.
 *
 * The provider package loads on the first model request, not here: `acai -p`
 * with an OpenAI model never pays for it (docs/architecture.md, "Start-up").
 * Key and base URL come only from acai's environment (`ANTHROPIC_API_KEY`,
 * `ANTHROPIC_BASE_URL`), always passed explicitly so the SDK never reads
 * `process.env` itself. `--base-url` / `baseUrl` / `OPENAI_BASE_URL` name an
 * OpenAI-compatible server and do not apply here (docs/cli.md, "Providers").
 */

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;

/** The SDK's default: its request paths (`/messages`) are relative to the `/v1` prefix. */
export const ANTHROPIC_API_URL = "https://api.anthropic.com/v1";

/** Sent when ANTHROPIC_BASE_URL names a server that needs no key (a proxy that adds its own). */
const PLACEHOLDER_KEY = "acai-no-key";

export interface AnthropicModelOptions {
  /** The model name (`claude-sonnet-4-5`). */
  modelId: string;
  /** The `--model` spec as given, for messages. */
  spec: string;
  env: Readonly<Record<string, string>>;
}

/** Checks key and base URL now (errors surface at start-up); the SDK loads on the first request. */
export function createAnthropicModel(options: AnthropicModelOptions): LanguageModelV4 {
  const { modelId, spec, env } = options;
  const baseUrl = anthropicBaseUrl(env.ANTHROPIC_BASE_URL);
  const apiKey = env.ANTHROPIC_API_KEY?.trim() || undefined;
  if (!apiKey && !baseUrl) {
    const openai = isSet(env, "OPENAI_API_KEY")
      ? ` (${whatIsSet(env)}: leave the model out, or name one with --model openai:MODEL)`
      : "";
    throw new ModelConfigError(
      `No Anthropic API key: ANTHROPIC_API_KEY is not set, and the model ${spec} needs it${openai}. To go on: ${providerChoices()}.`,
    );
  }
  return lazyModel({
    provider: "anthropic.messages",
    modelId,
    load: () =>
      import("@ai-sdk/anthropic").then(({ createAnthropic }) =>
        createAnthropic({
          apiKey: apiKey ?? PLACEHOLDER_KEY,
          baseURL: baseUrl ?? ANTHROPIC_API_URL,
          fetch: createModelFetch({ env, baseUrl: baseUrl ?? ANTHROPIC_API_URL }),
        }).messages(modelId),
      ),
    around: explainFailure,
  });
}

/**
 * ANTHROPIC_BASE_URL as Claude Code and Anthropic's own SDKs take it
 * (`https://api.anthropic.com`, requests go to `<url>/v1/messages`); a URL
 * that already ends in `/v1` (the AI SDK's form) is used as is. Undefined when
 * unset or blank.
 */
export function anthropicBaseUrl(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  if (!trimmed) return undefined;
  if (!isHttpUrl(trimmed)) {
    throw new ModelConfigError(
      `ANTHROPIC_BASE_URL "${trimmed}" must be an http(s) URL, e.g. https://api.anthropic.com. Fix or unset ANTHROPIC_BASE_URL.`,
      { badInput: true },
    );
  }
  const url = trimmed.replace(/\/+$/, "");
  return /\/v1$/i.test(url) ? url : `${url}/v1`;
}

/** The request failures whose generic advice (OPENAI_API_KEY, --base-url) would mislead here. */
const EXPLAINED: Readonly<Record<number, (server: string) => string>> = {
  401: (server) => `the Anthropic API refused the API key (401${server}): check ANTHROPIC_API_KEY`,
  403: (server) =>
    `the Anthropic API denied access (403${server}): check that your ANTHROPIC_API_KEY may use this model`,
  404: (server) =>
    `the Anthropic API does not know this model or URL (404${server}): check the model name in --model anthropic:MODEL, and ANTHROPIC_BASE_URL if set (acai sends requests to <ANTHROPIC_BASE_URL>/v1/messages)`,
};

/**
 * Rewords the failures that are not retried (401, 403, 404) so the user is
 * told to check the Anthropic variables; everything else (429, 5xx, 529
 * overloaded, network) stays an `APICallError` so the AI SDK retries it.
 */
async function explainFailure<T>(request: () => PromiseLike<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (!APICallError.isInstance(error) || error.statusCode === undefined) throw error;
    const explain = EXPLAINED[error.statusCode];
    if (!explain) throw error;
    const server = error.message ? `, server said: ${oneLine(error.message)}` : "";
    throw new AnthropicRequestError(explain(server), error);
  }
}

/** A failed Anthropic request, its message written for the user; `cause` is the SDK's error. */
class AnthropicRequestError extends Error {
  override readonly name = "AnthropicRequestError";
  readonly statusCode: number | undefined;
  constructor(message: string, cause: APICallError) {
    super(message, { cause });
    this.statusCode = cause.statusCode;
  }
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
