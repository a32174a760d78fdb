import path from "node:path";
import type { LanguageModel } from "ai";
import { BASE_URL_REQUIREMENT, isHttpUrl } from "../config/base-url.js";
import { createAnthropicModel } from "./anthropic.js";
import {
  DEFAULT_OPENAI_MODEL_ID,
  defaultSpec,
  isSet,
  noModelMessage,
  providerChoices,
  whatIsSet,
} from "./default-model.js";
import { ModelConfigError } from "./errors.js";
import { failFastOnLocalRefusal } from "./fail-fast.js";
import { offlineHint } from "./offline-hint.js";
import { createOpenAiModel } from "./openai.js";
import { createReplayModel } from "./replay.js";

export { ModelConfigError } from "./errors.js";

/** OpenAI's default model (also the default when no provider is set up). */
export const DEFAULT_MODEL_ID = DEFAULT_OPENAI_MODEL_ID;

/** Key sent to OpenAI-compatible servers that need none (Ollama, llama.cpp, ...). */
const PLACEHOLDER_KEY = "acai-no-key";

export interface ResolveModelOptions {
  /** `--model` / the `model` setting. */
  spec?: string;
  /** `--base-url` / the `baseUrl` setting (wins over `OPENAI_BASE_URL`); OpenAI-compatible servers only. */
  baseUrl?: string;
  env: Readonly<Record<string, string>>;
  /** Replay files are relative to it. */
  cwd: string;
}

export interface ResolvedModel {
  model: LanguageModel;
  /** What events, hooks and transcripts call the model: the model name (`gpt-5.1`, `claude-sonnet-4-5`), or `replay:FILE`. */
  modelId: string;
}

/**
 * Model specs:
 *
 * - `gpt-5.1`, `openai:gpt-5.1` — OpenAI. Without a base URL: the Responses API
 *   at api.openai.com with `OPENAI_API_KEY`. With `--base-url` / `OPENAI_BASE_URL`
 *   (Ollama, llama.cpp, vLLM, LM Studio, ...): the Chat Completions API, which
 *   those servers implement (most lack `/responses`); the key is optional there.
 * - `openai-chat:MODEL`, `openai-responses:MODEL` — force one API.
 * - `anthropic:MODEL` — Anthropic's Messages API with `ANTHROPIC_API_KEY`, at
 *   `ANTHROPIC_BASE_URL` if set (models/anthropic.ts). The OpenAI base URL
 *   (`--base-url`, `baseUrl`, `OPENAI_BASE_URL`) does not apply: it names the
 *   OpenAI-compatible server, and Anthropic's key must not go there.
 * - `replay:FILE` — the replay model (docs/replay.md), FILE relative to the project.
 *
 * Without a spec (models/default-model.ts): OpenAI's default with an OpenAI key
 * or base URL, else Anthropic's with `ANTHROPIC_API_KEY` (or
 * `ANTHROPIC_BASE_URL`), else a `ModelConfigError` naming every provider.
 *
 * Only the first colon separates the provider, so `openai:llama3.1:8b` works;
 * with a base URL an unknown prefix is taken as part of the model name
 * (`llama3.1:8b`).
 */
export function resolveModel(options: ResolveModelOptions): ResolvedModel {
  const hasBaseUrl = Boolean(options.baseUrl?.trim() || options.env.OPENAI_BASE_URL?.trim());
  const spec = (options.spec ?? "").trim() || defaultSpec(options.env, hasBaseUrl);
  if (spec === undefined) throw new ModelConfigError(noModelMessage(options.env));
  const { provider, id } = splitSpec(spec, hasBaseUrl);
  if (provider === "anthropic") return resolveAnthropic(spec, id, options.env);
  const baseUrl = normalizeBaseUrl(options.baseUrl, options.env.OPENAI_BASE_URL);

  switch (provider) {
    case "replay": {
      if (!id) {
        throw new ModelConfigError(
          `--model replay: needs a file (relative to the project directory), e.g. ${offlineHint()}.`,
        );
      }
      const file = path.resolve(options.cwd, id);
      return { model: createReplayModel(file, { label: id }), modelId: `replay:${id}` };
    }
    case "openai":
    case "openai-chat":
    case "openai-responses": {
      if (!id) {
        throw new ModelConfigError(
          `--model ${spec} names no model. Use e.g. --model openai:${DEFAULT_OPENAI_MODEL_ID}, or a model your server serves.`,
        );
      }
      const apiKey = options.env.OPENAI_API_KEY?.trim() || undefined;
      if (!apiKey && !baseUrl) throw new ModelConfigError(noOpenAiKeyMessage(spec, options.env));
      const api =
        provider === "openai" ? (baseUrl ? "chat" : "responses") : provider.slice("openai-".length);
      const model = createOpenAiModel({
        api: api === "chat" ? "chat" : "responses",
        modelId: id,
        apiKey: apiKey ?? PLACEHOLDER_KEY,
        baseUrl,
        env: options.env,
      });
      return { model: failFastOnLocalRefusal(model), modelId: id };
    }
    default:
      throw new ModelConfigError(
        `Unknown model provider "${provider}" in --model ${spec}. Use openai:MODEL (or just MODEL), openai-chat:MODEL, openai-responses:MODEL, anthropic:MODEL, or replay:FILE. For a local OpenAI-compatible server, also pass --base-url.`,
      );
  }
}

/** The model names OpenAI (by --model or the model setting) and nothing of OpenAI is set. */
function noOpenAiKeyMessage(spec: string, env: Readonly<Record<string, string>>): string {
  const anthropic = isSet(env, "ANTHROPIC_API_KEY")
    ? ` (${whatIsSet(env)}: leave the model out, or name one with --model anthropic:MODEL)`
    : "";
  return `The model ${spec} is taken as an OpenAI model (no provider prefix, or openai:), and OPENAI_API_KEY is not set${anthropic}. To go on: ${providerChoices()}.`;
}

/** No OpenAI base URL here, and no check of one: it does not apply to this provider. */
function resolveAnthropic(
  spec: string,
  id: string,
  env: Readonly<Record<string, string>>,
): ResolvedModel {
  if (!id) {
    throw new ModelConfigError(
      `--model ${spec} names no model. Use e.g. --model anthropic:claude-sonnet-4-5.`,
    );
  }
  return {
    model: failFastOnLocalRefusal(createAnthropicModel({ modelId: id, spec, env })),
    modelId: id,
  };
}

const PROVIDERS = new Set(["openai", "openai-chat", "openai-responses", "anthropic", "replay"]);

function splitSpec(spec: string, hasBaseUrl: boolean): { provider: string; id: string } {
  const colon = spec.indexOf(":");
  if (colon < 0) return { provider: "openai", id: spec };
  const provider = spec.slice(0, colon).toLowerCase();
  const id = spec.slice(colon + 1).trim();
  if (!PROVIDERS.has(provider) && hasBaseUrl) return { provider: "openai", id: spec };
  return { provider, id };
}

/** `--base-url` / the `baseUrl` setting (checked where they are read), else `OPENAI_BASE_URL`. */
function normalizeBaseUrl(option: string | undefined, env: string | undefined): string | undefined {
  const fromOption = option?.trim() || undefined;
  const trimmed = fromOption ?? (env?.trim() || undefined);
  if (!trimmed) return undefined;
  if (!isHttpUrl(trimmed)) {
    const source = fromOption ? "The base URL" : "OPENAI_BASE_URL";
    const fix = fromOption
      ? "Fix --base-url or the baseUrl setting."
      : "Fix or unset OPENAI_BASE_URL.";
    throw new ModelConfigError(`${source} "${trimmed}" ${BASE_URL_REQUIREMENT}. ${fix}`, {
      badInput: true,
    });
  }
  return trimmed.replace(/\/+$/, "");
}
