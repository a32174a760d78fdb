/**
 * A refused connection to a model server on this machine is not retried:
 * nothing listens on that port (the server is not started, or the port is
 * wrong), and the AI SDK's retries (2 s, then 4 s) would only delay the same
 * error by 6 s. Nor is a port fetch refuses to use ("bad port"). Other
 * connection failures, and refused connections to other hosts (a proxy
 * restarting), keep the SDK's retries.
 */
import { APICallError, type LanguageModel } from "ai";
import { networkCode } from "../agent/provider-error.js";

type LanguageModelV4 = Extract<LanguageModel, { specificationVersion: "v4" }>;

/** Whether `host` (a URL's hostname) is this machine. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "");
  return (
    name === "localhost" ||
    name.endsWith(".localhost") ||
    name === "::1" ||
    name === "0.0.0.0" ||
    /^127(\.\d{1,3}){3}$/.test(name)
  );
}

/**
 * Whether `error` would only come back on a retry: a refused connection to a
 * server on this machine, or a port fetch will not connect to at all ("bad
 * port", e.g. 1 or 9).
 */
export function failsTheSameAgain(error: unknown): error is APICallError {
  if (!APICallError.isInstance(error) || error.statusCode !== undefined) return false;
  const cause = error.cause;
  if (cause instanceof Error && cause.message === "bad port") return true;
  if (networkCode(error) !== "ECONNREFUSED") return false;
  try {
    return isLoopbackHost(new URL(error.url).hostname);
  } catch {
    return false;
  }
}

/** The same error, marked not retryable. */
function notRetryable(error: APICallError): APICallError {
  return new APICallError({
    message: error.message,
    url: error.url,
    requestBodyValues: error.requestBodyValues,
    cause: error.cause,
    isRetryable: false,
    ...(error.statusCode === undefined ? {} : { statusCode: error.statusCode }),
  });
}

async function failFast<T>(call: () => PromiseLike<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw failsTheSameAgain(error) ? notRetryable(error) : error;
  }
}

/**
 * `model`, whose refused connections to this machine fail at once instead of
 * being retried. Its properties are read through, not copied: a lazily loaded
 * provider (anthropic.ts) stays lazy.
 */
export function failFastOnLocalRefusal(model: LanguageModelV4): LanguageModelV4 {
  return {
    specificationVersion: "v4",
    get provider() {
      return model.provider;
    },
    get modelId() {
      return model.modelId;
    },
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (options) => failFast(() => model.doGenerate(options)),
    doStream: (options) => failFast(() => model.doStream(options)),
  };
}
