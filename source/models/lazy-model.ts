import type { LanguageModel } from "ai";

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;
type CallOptions = Parameters<LanguageModelV4["doStream"]>[0];

export interface LazyModelOptions {
  /** The provider's own name for its models (`openai.chat`, `anthropic.messages`). */
  provider: string;
  modelId: string;
  /** Loads the provider package and makes the model; called once, at the first use. */
  load: () => Promise<LanguageModelV4>;
  /** Wraps each call (anthropic.ts rewords some failures); the call as it is when absent. */
  around?: <T>(call: () => PromiseLike<T>) => Promise<T>;
}

/**
 * A model whose provider package loads at its first use, not when it is
 * resolved (anthropic.ts, openai.ts): the AI SDK reads `supportedUrls` once
 * per request, so that read is the first request's load — or an earlier one,
 * while the first hooks run (session/provider-ahead.ts, decision 0066).
 */
export function lazyModel(options: LazyModelOptions): LanguageModelV4 {
  let loaded: Promise<LanguageModelV4> | undefined;
  const load = (): Promise<LanguageModelV4> => {
    loaded ??= options.load();
    return loaded;
  };
  const around = options.around ?? (async <T>(call: () => PromiseLike<T>) => call());
  return {
    specificationVersion: "v4",
    provider: options.provider,
    modelId: options.modelId,
    get supportedUrls() {
      return load().then((model) => model.supportedUrls);
    },
    async doGenerate(call: CallOptions) {
      const model = await load();
      return around(() => model.doGenerate(call));
    },
    async doStream(call: CallOptions) {
      const model = await load();
      return around(() => model.doStream(call));
    },
  };
}
