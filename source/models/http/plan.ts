/**
 * Which model requests `model-fetch.ts` sends itself over `node:http`, and
 * which it hands to Node's `fetch` unchanged: a pure function of the request
 * and acai's environment (decision 0067). It sends what the AI SDK's model
 * providers send — a string or bytes posted, or nothing, to an http(s) URL —
 * and hands over everything it would have to do differently from `fetch`:
 * Node's proxy from the environment, a port `fetch` refuses, credentials in
 * the URL, a `Request` object, a streamed or form body, and any option
 * beyond method, headers, body and signal.
 */
import { type HeadersInput, PlainHeaders } from "./headers.js";

/** A request `model-fetch.ts` sends itself. */
export interface DirectRequest {
  url: URL;
  method: string;
  headers: PlainHeaders;
  body: Uint8Array | string | undefined;
  signal: AbortSignal | undefined;
}

export type RequestPlan =
  | { kind: "direct"; request: DirectRequest }
  | { kind: "fetch"; reason: string };

/** What `fetch` is called with, as far as the plan looks at it. */
export interface FetchInit {
  method?: string;
  headers?: HeadersInput;
  body?: unknown;
  signal?: AbortSignal | null;
  [option: string]: unknown;
}

/** Options a direct request honours; any other (defined) one goes to `fetch`. */
const DIRECT_OPTIONS = new Set(["method", "headers", "body", "signal"]);

/**
 * Ports the Fetch standard's "bad port" list holds above 1023 (every port
 * below 1024 but 80 and 443 goes to `fetch`, which refuses the listed ones).
 */
const HIGH_BAD_PORTS = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
  6679, 6697, 10080,
]);

export interface PlanContext {
  /** acai's environment: Node's proxy is on when NODE_USE_ENV_PROXY is set. */
  env: Readonly<Record<string, string | undefined>>;
  /** Node's own flags (`--use-env-proxy` turns the proxy on too). */
  execArgv: readonly string[];
}

export function planRequest(
  input: unknown,
  init: FetchInit | undefined,
  context: PlanContext,
): RequestPlan {
  const url = requestUrl(input);
  if (!url) return { kind: "fetch", reason: "not a URL string or URL" };
  const refused = urlRefusal(url) ?? optionRefusal(init) ?? proxyRefusal(context);
  if (refused) return { kind: "fetch", reason: refused };
  const body = init?.body;
  if (
    body !== undefined &&
    body !== null &&
    typeof body !== "string" &&
    !(body instanceof Uint8Array)
  ) {
    return { kind: "fetch", reason: "a body that is not a string or bytes" };
  }
  const method = (init?.method ?? "GET").toUpperCase();
  if ((method === "GET" || method === "HEAD") && body !== undefined && body !== null) {
    return { kind: "fetch", reason: "a body on a GET or HEAD request" };
  }
  return {
    kind: "direct",
    request: {
      url,
      method,
      headers: new PlainHeaders(init?.headers),
      body: body ?? undefined,
      signal: init?.signal ?? undefined,
    },
  };
}

/**
 * The built-in module a direct request to `baseUrl` goes over (`node:http` or
 * `node:https`); undefined when such a request would go to `fetch`, or for a URL
 * that does not parse (the request then says why).
 */
export function directTransport(
  baseUrl: string,
  context: PlanContext,
): "node:http" | "node:https" | undefined {
  const url = requestUrl(baseUrl);
  if (!url || urlRefusal(url) || proxyRefusal(context)) return undefined;
  return url.protocol === "https:" ? "node:https" : "node:http";
}

function requestUrl(input: unknown): URL | undefined {
  if (input instanceof URL) return new URL(input.href);
  if (typeof input !== "string") return undefined;
  try {
    return new URL(input);
  } catch {
    return undefined;
  }
}

function urlRefusal(url: URL): string | undefined {
  if (url.protocol !== "http:" && url.protocol !== "https:") return `the scheme ${url.protocol}`;
  if (url.username || url.password) return "credentials in the URL";
  if (url.port === "") return undefined;
  const port = Number(url.port);
  if ((port < 1024 && port !== 80 && port !== 443) || HIGH_BAD_PORTS.has(port)) {
    return `port ${port}, which fetch may refuse`;
  }
  return undefined;
}

function optionRefusal(init: FetchInit | undefined): string | undefined {
  if (!init) return undefined;
  for (const [option, value] of Object.entries(init)) {
    if (value !== undefined && !DIRECT_OPTIONS.has(option)) return `the option ${option}`;
  }
  return undefined;
}

function proxyRefusal(context: PlanContext): string | undefined {
  const flag = context.env.NODE_USE_ENV_PROXY;
  const byEnv = flag !== undefined && flag !== "" && flag !== "0";
  const byFlag =
    context.execArgv.includes("--use-env-proxy") ||
    /(^|\s)--use-env-proxy(\s|$)/.test(context.env.NODE_OPTIONS ?? "");
  return byEnv || byFlag ? "Node's proxy from the environment" : undefined;
}
