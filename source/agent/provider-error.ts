import { APICallError, type LanguageModel, RetryError } from "ai";
import type { ProviderErrorKind } from "./event-data.js";

/** What to check, by who serves the model: its variables, not another provider's. */
interface Advice {
  key: string;
  server: string;
  model: string;
}

const ANTHROPIC_ADVICE: Advice = {
  key: "ANTHROPIC_API_KEY",
  server: "ANTHROPIC_BASE_URL (if set)",
  model: "--model anthropic:MODEL and ANTHROPIC_BASE_URL",
};

const OPENAI_ADVICE: Advice = {
  key: "OPENAI_API_KEY",
  server: "--base-url / OPENAI_BASE_URL (or baseUrl in the settings)",
  model: "--model and --base-url",
};

/** The advice for a model, by its provider id (`anthropic.messages`, `openai.chat`, …). */
function adviceFor(model: LanguageModel | undefined): Advice {
  const provider = typeof model === "object" ? model.provider : "";
  return provider.startsWith("anthropic") ? ANTHROPIC_ADVICE : OPENAI_ADVICE;
}

/**
 * One line for the user about a failed model request: what happened, the
 * status code, and what to check — the variables of the model's provider
 * (`model`, when known). Never a stack trace.
 */
export function describeProviderError(error: unknown, model?: LanguageModel): string {
  const advice = adviceFor(model);
  let attempts = 1;
  let inner = error;
  if (RetryError.isInstance(error)) {
    attempts = error.errors.length;
    inner = error.lastError;
  }
  const retried = attempts > 1 ? ` after ${attempts} attempts` : "";

  if (APICallError.isInstance(inner)) {
    const server = serverMessage(inner);
    const detail = server ? ` (server said: ${server})` : "";
    const status = inner.statusCode;
    if (status === undefined) {
      // No HTTP response at all: the connection failed (refused, unknown host, a port fetch refuses, …).
      const reason = networkCode(inner) ?? connectionReason(inner.message);
      return `could not reach the model server at ${inner.url || "its URL"} (${reason})${retried}: is a server running at that address? Check ${advice.server} and your network`;
    }
    switch (status) {
      case 401:
        return `the model server refused the API key (401)${detail}: check ${advice.key}`;
      case 403:
        return `the model server denied access (403)${detail}: check that your key may use this model`;
      case 404:
        return `the model server does not know this model or URL (404)${detail}: check ${advice.model}`;
      case 429:
        return `the model server is rate-limiting requests (429)${retried}${detail}: wait a moment and retry, or check your quota`;
      default:
        if (status >= 500) {
          return `the model server failed (${status})${retried}${detail}: try again later, or check the server's logs`;
        }
        return `the model server rejected the request (${status})${detail}`;
    }
  }
  const code = networkCode(inner);
  if (code) {
    return `could not reach the model server (${code})${retried}: is it running? check ${advice.server} and your network`;
  }
  if (inner instanceof Error)
    return `the model request failed${retried}: ${oneLine(inner.message)}`;
  if (inner && typeof inner === "object" && "message" in inner) {
    return `the model request failed${retried}: ${oneLine(String((inner as { message: unknown }).message))}`;
  }
  return `the model request failed${retried}: ${oneLine(String(inner))}`;
}

/** What kind of failure a model request's error is (Claude Code's StopFailure `error`). */
export function providerErrorKind(error: unknown): ProviderErrorKind {
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    if (status === undefined || status >= 500) return "server_error";
    if (status === 429) return "rate_limit";
    if (status === 401 || status === 403) return "authentication_failed";
    if (status === 402) return "billing_error";
    if (status >= 400) return "invalid_request";
    return "unknown";
  }
  return networkCode(inner) === undefined ? "unknown" : "server_error";
}

function serverMessage(error: APICallError): string | undefined {
  const data = error.data as { error?: { message?: unknown } } | undefined;
  const fromData = data?.error?.message;
  if (typeof fromData === "string" && fromData) return truncate(oneLine(fromData));
  if (error.responseBody) {
    try {
      const parsed = JSON.parse(error.responseBody) as { error?: { message?: unknown } | string };
      const message = typeof parsed.error === "string" ? parsed.error : parsed.error?.message;
      if (typeof message === "string" && message) return truncate(oneLine(message));
    } catch {
      return truncate(oneLine(error.responseBody));
    }
  }
  return undefined;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_SOCKET",
]);

/** Walks `cause` chains (fetch wraps the socket error) looking for a network error code. */
export function networkCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === "object"; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return code;
    const errors = (current as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      for (const sub of errors) {
        const subCode = networkCode(sub);
        if (subCode) return subCode;
      }
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The AI SDK says "Cannot connect to API: bad port"; keep what follows the colon. */
function connectionReason(message: string): string {
  const reason = oneLine(message.replace(/^Cannot connect to API:\s*/i, ""));
  return truncate(reason || "connection failed", 120);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function truncate(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
