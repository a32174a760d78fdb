/**
 * Which model a session uses when neither `--model` nor the `model` setting
 * names one, and the words for when no provider is set up at all. The
 * variables decide: OpenAI's first (acai's default since the start), then
 * Anthropic's, so a Claude Code user with only `ANTHROPIC_API_KEY` gets an
 * Anthropic model without a flag.
 */
import { offlineHint } from "./offline-hint.js";

export const DEFAULT_OPENAI_MODEL_ID = "gpt-5.1";
export const DEFAULT_ANTHROPIC_MODEL_ID = "claude-sonnet-4-5";

/** The variables that set a provider up, in the order the no-model message names them. */
const PROVIDER_VARIABLES = [
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** Set and not blank. */
export function isSet(env: Env, name: string): boolean {
  return Boolean(env[name]?.trim());
}

/**
 * The spec to use when none is given: OpenAI's default model with an OpenAI
 * key or base URL (`hasOpenAiBaseUrl` counts `--base-url` and the `baseUrl`
 * setting too), else Anthropic's with an Anthropic key or base URL, else none.
 */
export function defaultSpec(env: Env, hasOpenAiBaseUrl: boolean): string | undefined {
  if (isSet(env, "OPENAI_API_KEY") || hasOpenAiBaseUrl) return `openai:${DEFAULT_OPENAI_MODEL_ID}`;
  if (isSet(env, "ANTHROPIC_API_KEY") || isSet(env, "ANTHROPIC_BASE_URL")) {
    return `anthropic:${DEFAULT_ANTHROPIC_MODEL_ID}`;
  }
  return undefined;
}

/** "ANTHROPIC_API_KEY is set" / "none of … is set": what the user has, for the messages below. */
export function whatIsSet(env: Env): string {
  const set = PROVIDER_VARIABLES.filter((name) => isSet(env, name));
  if (set.length === 0) return `none of ${PROVIDER_VARIABLES.join(", ")} is set`;
  return `${set.join(" and ")} ${set.length === 1 ? "is" : "are"} set`;
}

/** Every provider's one step, the same in every message that has to say it. */
export function providerChoices(): string {
  return [
    `for Anthropic, set ANTHROPIC_API_KEY (acai then uses anthropic:${DEFAULT_ANTHROPIC_MODEL_ID}; another with --model anthropic:MODEL)`,
    `for OpenAI, set OPENAI_API_KEY (acai then uses ${DEFAULT_OPENAI_MODEL_ID}; another with --model openai:MODEL)`,
    "for a local OpenAI-compatible server (Ollama, llama.cpp, vLLM, LM Studio), pass --base-url (or set OPENAI_BASE_URL) and its model, e.g. --base-url http://localhost:11434/v1 --model llama3.1",
    `or run offline with a scripted model: ${offlineHint()}`,
  ].join("; ");
}

/** No spec and no provider set up. One paragraph. */
export function noModelMessage(env: Env): string {
  return `No model is configured: ${whatIsSet(env)}, and neither --model nor the model setting names one. To go on: ${providerChoices()}.`;
}
