/**
 * The `fetch` acai gives its model providers (decision 0067): the requests
 * the AI SDK sends — a JSON body posted to an http(s) URL, an answer read as
 * a stream — go over Node's own `http`/`https`, so a start never loads undici
 * (Node's `fetch`, ~50 ms of CPU before the first request; only `https`
 * loads TLS, and only for an https URL). What it would have to do
 * differently from `fetch` goes to `fetch` unchanged (`plan.ts`), and so
 * does a request answered with a redirect (sent again, and followed there).
 *
 * It keeps what `fetch` promises its callers: the same errors (`TypeError:
 * fetch failed` with the socket's error as its cause before an answer,
 * `terminated` when the body breaks off, the signal's reason on abort),
 * undici's time limits (10 s to connect, 300 s of silence waiting for the
 * headers or within the body, with undici's error codes, which the SDK
 * retries), the default headers (`accept: *\/*`, `user-agent: node`,
 * a string body's content type), a compressed body decoded, and the
 * connections kept alive by Node's global agents.
 */
import type { ClientRequest, IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { type DirectRequest, directTransport, type FetchInit, planRequest } from "./plan.js";
import { PlainResponse, responseHeaders, webBody } from "./response.js";

type Fetch = typeof globalThis.fetch;

export interface ModelFetchOptions {
  /** acai's environment (Node's proxy from it sends every request through `fetch`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Node's flags; `process.execArgv` when not given. */
  execArgv?: readonly string[];
  /** Where the requests it does not send itself go; Node's `fetch` when not given. */
  fetch?: Fetch;
  /**
   * Where the provider sends its requests: the module they go over
   * (`node:http`, or `node:https` with TLS) loads now, with the provider —
   * while the first hooks run (decision 0070) — instead of at the first request.
   */
  baseUrl?: string;
  /** undici's defaults when not given: 10 s to connect, 300 s of silence. */
  connectTimeoutMs?: number;
  idleTimeoutMs?: number;
}

interface Limits {
  connectMs: number;
  idleMs: number;
}

type Sent = { kind: "answered"; response: PlainResponse } | { kind: "redirected" };

export function createModelFetch(options: ModelFetchOptions): Fetch {
  const context = { env: options.env, execArgv: options.execArgv ?? process.execArgv };
  const transport = options.baseUrl && directTransport(options.baseUrl, context);
  if (transport) process.getBuiltinModule(transport);
  const limits = {
    connectMs: options.connectTimeoutMs ?? 10_000,
    idleMs: options.idleTimeoutMs ?? 300_000,
  };
  const viaFetch = (input: unknown, init: unknown) =>
    (options.fetch ?? globalThis.fetch)(input as string, init as RequestInit);
  const modelFetch = async (input: unknown, init?: FetchInit) => {
    const plan = planRequest(input, init, context);
    switch (plan.kind) {
      case "fetch":
        return viaFetch(input, init);
      case "direct": {
        const sent = await send(plan.request, limits);
        return sent.kind === "answered" ? sent.response : viaFetch(input, init);
      }
    }
  };
  // Its answers are the part of `Response` the AI SDK reads (response.ts), not undici's class.
  return modelFetch as unknown as Fetch;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function send(request: DirectRequest, limits: Limits): Promise<Sent> {
  const { url, signal } = request;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const transport = process.getBuiltinModule(
    url.protocol === "https:" ? "node:https" : "node:http",
  );
  return new Promise<Sent>((resolve, reject) => {
    const req = transport.request(url, {
      method: request.method,
      headers: outgoingHeaders(request),
    });
    let response: IncomingMessage | undefined;
    /** What a failure is reported as: the signal's reason, or fetch's error for its moment. */
    const failure = (error: unknown): unknown => {
      if (signal?.aborted) return signal.reason;
      return new TypeError(response ? "terminated" : "fetch failed", { cause: error });
    };
    const destroy = (error: Error): void => void (response ?? req).destroy(error);
    const onAbort = (): void => destroy(new Error("aborted"));
    signal?.addEventListener("abort", onAbort, { once: true });
    const release = (): void => signal?.removeEventListener("abort", onAbort);
    armTimeouts(req, limits, url.protocol, (code, message) =>
      destroy(Object.assign(new Error(message), { code })),
    );
    req.on("error", (error) => {
      if (response) return;
      release();
      reject(failure(error));
    });
    req.once("response", (message) => {
      response = message;
      message.once("close", release);
      if (REDIRECTS.has(message.statusCode ?? 0) && message.headers.location !== undefined) {
        message.resume();
        resolve({ kind: "redirected" });
        return;
      }
      const body = webBody(decoded(message), failure);
      const status = message.statusCode ?? 0;
      const headers = responseHeaders(message);
      resolve({
        kind: "answered",
        response: new PlainResponse(url.href, status, message.statusMessage ?? "", headers, body),
      });
    });
    req.end(request.body);
  });
}

/** The request's headers with what `fetch` adds when they are missing. */
function outgoingHeaders(request: DirectRequest): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of request.headers) headers[name] = value;
  headers.accept ??= "*/*";
  headers["user-agent"] ??= "node";
  const { body } = request;
  if (typeof body === "string") headers["content-type"] ??= "text/plain;charset=UTF-8";
  if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
  else if (request.method === "POST" || request.method === "PUT") headers["content-length"] = "0";
  return headers;
}

/** undici's connect timeout and its headers and body timeouts (a socket silent that long). */
function armTimeouts(
  req: ClientRequest,
  limits: Limits,
  protocol: string,
  fail: (code: string, message: string) => void,
): void {
  req.once("socket", (socket) => {
    if (!socket.connecting) return;
    const timer = setTimeout(
      () => fail("UND_ERR_CONNECT_TIMEOUT", `Connect Timeout Error (${limits.connectMs} ms)`),
      limits.connectMs,
    );
    socket.once(protocol === "https:" ? "secureConnect" : "connect", () => clearTimeout(timer));
    socket.once("close", () => clearTimeout(timer));
  });
  let answered = false;
  req.once("response", () => {
    answered = true;
  });
  req.setTimeout(limits.idleMs, () =>
    answered
      ? fail("UND_ERR_BODY_TIMEOUT", `Body Timeout Error (${limits.idleMs} ms of silence)`)
      : fail("UND_ERR_HEADERS_TIMEOUT", `Headers Timeout Error (${limits.idleMs} ms)`),
  );
}

/** The body as sent, or decoded when the server compressed it anyway (acai asks for none). */
function decoded(message: IncomingMessage): Readable {
  const encoding = message.headers["content-encoding"]?.trim().toLowerCase();
  if (encoding !== "gzip" && encoding !== "x-gzip" && encoding !== "deflate" && encoding !== "br") {
    return message;
  }
  const zlib = process.getBuiltinModule("node:zlib");
  const decoder =
    encoding === "br"
      ? zlib.createBrotliDecompress()
      : encoding === "deflate"
        ? zlib.createInflate()
        : zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH });
  message.on("error", (error) => decoder.destroy(error));
  decoder.once("close", () => message.destroy());
  return message.pipe(decoder);
}
