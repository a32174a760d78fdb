import { type LanguageModel, wrapLanguageModel } from "ai";
import { createModelFetch } from "./http/model-fetch.js";
import { lazyModel } from "./lazy-model.js";

/**
 * `openai:MODEL` (and `openai-chat:`, `openai-responses:`): OpenAI's Chat
 * Completions or Responses API through `@ai-sdk/openai`.
 *
 * As for Anthropic (anthropic.ts), the provider package loads when the model
 * is first used, not when it is resolved: the spec, key and base URL are
 * checked at resolution (models/resolve.ts), so a bad model still fails there,
 * and the package's ~450 kB and its schemas are evaluated when the first
 * request needs them — or earlier, while the hooks before that request run
 * (session/provider-ahead.ts, decision 0066), by reading `supportedUrls`.
 */

/** Where `@ai-sdk/openai` sends its requests when no base URL is given. */
const OPENAI_API_URL = "https://api.openai.com/v1";

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;

export interface OpenAiModelOptions {
  /** Which of OpenAI's APIs: the provider names its models `openai.chat` / `openai.responses`. */
  api: "chat" | "responses";
  /** The model name (`gpt-5.1`, `llama3.1:8b`). */
  modelId: string;
  apiKey: string;
  /** A server of the user's (`--base-url`, `baseUrl`, `OPENAI_BASE_URL`); OpenAI's own when absent. */
  baseUrl: string | undefined;
  /** acai's environment, for the requests' fetch (http/model-fetch.ts). */
  env: Readonly<Record<string, string>>;
}

/** The model, its provider package loaded at its first use. */
export function createOpenAiModel(options: OpenAiModelOptions): LanguageModelV4 {
  const { api, modelId, apiKey, baseUrl, env } = options;
  return lazyModel({
    provider: `openai.${api}`,
    modelId,
    load: () =>
      import("@ai-sdk/openai").then(({ createOpenAI }) => {
        const openai = createOpenAI({
          apiKey,
          ...(baseUrl ? { baseURL: baseUrl } : {}),
          fetch: createModelFetch({ env, baseUrl: baseUrl ?? OPENAI_API_URL }),
        });
        if (api === "chat") return openai.chat(modelId);
        const responses = openai.responses(modelId);
        return baseUrl ? withoutStore(responses) : responses;
      }),
  });
}

/** Servers other than OpenAI keep no response store: send full items instead of item references. */
function withoutStore(responses: LanguageModelV4): LanguageModelV4 {
  return wrapLanguageModel({
    model: responses,
    middleware: {
      specificationVersion: "v4",
      transformParams: async ({ params }) => ({
        ...params,
        providerOptions: {
          ...params.providerOptions,
          openai: { ...params.providerOptions?.openai, store: false },
        },
      }),
    },
  }) as LanguageModelV4;
}
