import type { Usage } from "../agent/event-data.js";

/** USD per million tokens. */
export interface ModelPrice {
  inputPerMTok: number;
  outputPerMTok: number;
}

/**
 * OpenAI list prices (standard tier, uncached input) for the models people
 * commonly run acai with. Exact names only: a dated snapshot can cost
 * something else (gpt-4o-2024-05-13 did), and no cost beats a wrong one.
 */
const OPENAI_PRICES: Readonly<Record<string, ModelPrice>> = {
  "gpt-5.1": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "gpt-5": { inputPerMTok: 1.25, outputPerMTok: 10 },
  "gpt-5-mini": { inputPerMTok: 0.25, outputPerMTok: 2 },
  "gpt-5-nano": { inputPerMTok: 0.05, outputPerMTok: 0.4 },
  "gpt-4.1": { inputPerMTok: 2, outputPerMTok: 8 },
  "gpt-4.1-mini": { inputPerMTok: 0.4, outputPerMTok: 1.6 },
  "gpt-4.1-nano": { inputPerMTok: 0.1, outputPerMTok: 0.4 },
  "gpt-4o": { inputPerMTok: 2.5, outputPerMTok: 10 },
  "gpt-4o-mini": { inputPerMTok: 0.15, outputPerMTok: 0.6 },
  o3: { inputPerMTok: 2, outputPerMTok: 8 },
  "o4-mini": { inputPerMTok: 1.1, outputPerMTok: 4.4 },
};

/** Settings `pricing`: USD per million tokens by model id (validated by the settings loader). */
export type PriceOverrides = Readonly<Record<string, { input: number; output: number }>>;

export interface PriceQuery {
  /** The session's model id (`gpt-5.1`; `replay:FILE` has no price). */
  modelId: string;
  /** The base URL in effect (flag, setting or OPENAI_BASE_URL), if any. */
  baseUrl?: string | undefined;
}

/**
 * The price of a model: the settings' `pricing` first (any server: the user
 * knows what their local or self-hosted model costs), then OpenAI's list
 * price. Undefined when neither knows it.
 */
export function modelPrice(
  query: PriceQuery & { overrides?: PriceOverrides | undefined },
): ModelPrice | undefined {
  return overridePrice(query.modelId, query.overrides) ?? openAiPrice(query);
}

/** The exact id first, then ignoring case and surrounding spaces. */
function overridePrice(
  modelId: string,
  overrides: PriceOverrides | undefined,
): ModelPrice | undefined {
  if (overrides === undefined) return undefined;
  const exact = Object.hasOwn(overrides, modelId) ? overrides[modelId] : undefined;
  const id = modelId.trim().toLowerCase();
  const found =
    exact ?? Object.entries(overrides).find(([key]) => key.trim().toLowerCase() === id)?.[1];
  return found && { inputPerMTok: found.input, outputPerMTok: found.output };
}

/**
 * The price of a session's model: its settings' `pricing`, else OpenAI's list
 * price against the base URL in effect as the session resolves it (the
 * `--base-url` flag, then the `baseUrl` setting, then `OPENAI_BASE_URL`).
 */
export function sessionPrice(session: {
  modelId: string;
  baseUrlFlag: string | undefined;
  settings: { baseUrl?: string | undefined; pricing?: PriceOverrides | undefined };
  env: Readonly<Record<string, string | undefined>>;
}): ModelPrice | undefined {
  const { settings } = session;
  const baseUrl = session.baseUrlFlag ?? settings.baseUrl ?? session.env.OPENAI_BASE_URL;
  return modelPrice({ modelId: session.modelId, baseUrl, overrides: settings.pricing });
}

/**
 * The price of a model, or undefined when acai cannot know it: a model not in
 * the table, a replay model, or any server other than OpenAI's own (a local
 * server may call its model `gpt-4o` and charge nothing).
 */
export function openAiPrice({ modelId, baseUrl }: PriceQuery): ModelPrice | undefined {
  if (!isOpenAiEndpoint(baseUrl)) return undefined;
  const id = modelId.trim().toLowerCase();
  return Object.hasOwn(OPENAI_PRICES, id) ? OPENAI_PRICES[id] : undefined;
}

function isOpenAiEndpoint(baseUrl: string | undefined): boolean {
  const value = baseUrl?.trim();
  if (!value) return true;
  try {
    return new URL(value).hostname === "api.openai.com";
  } catch {
    return false;
  }
}

/** What `usage` cost at `price`, in USD. */
export function costUsd(usage: Usage, price: ModelPrice): number {
  return (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1e6;
}

/** `$0.0123` below a dollar (4 decimals), `$1.23` from a dollar on; `<$0.0001` for a sliver. */
export function formatUsd(usd: number): string {
  if (!Number.isFinite(usd) || usd <= 0) return "$0.00";
  if (usd < 0.0001) return "<$0.0001";
  const small = usd.toFixed(4);
  return small.startsWith("0.") ? `$${small}` : `$${usd.toFixed(2)}`;
}
