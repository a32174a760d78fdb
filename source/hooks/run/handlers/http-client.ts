/**
 * The session's HTTP client for `http` hooks: one keep-alive agent per
 * protocol, so the hundredth call to the same server reuses a connection
 * instead of opening one (bench/hooks-http.ts). Node's own `http`/`https`:
 * fetch (undici) would do, but its timeouts and body cap are not per request
 * without more code than this, and it follows redirects unless told (decision 0032).
 * A redirect is never followed: the URL the user allowed is the only one posted to.
 */
import http from "node:http";
import https from "node:https";

interface HttpPost {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: string;
  timeoutMs: number;
  /** The response body's cap; past it the request is dropped. */
  maxBytes: number;
  signal?: AbortSignal;
}

export type HttpOutcome =
  | { kind: "answered"; status: number; body: string; durationMs: number }
  | { kind: "timed_out"; durationMs: number }
  | { kind: "aborted"; durationMs: number }
  | { kind: "too_large"; durationMs: number }
  | { kind: "failed"; error: string; durationMs: number };

export interface HttpHookClient {
  post(request: HttpPost): Promise<HttpOutcome>;
  /** Closes the idle connections (the session's end). */
  close(): void;
}

/** Idle connections are kept this long (a hook fires again soon, or not for a while). */
const KEEP_ALIVE_MS = 30_000;

export function createHttpHookClient(): HttpHookClient {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, keepAliveMsecs: KEEP_ALIVE_MS, maxSockets: 16 }),
    "https:": new https.Agent({ keepAlive: true, keepAliveMsecs: KEEP_ALIVE_MS, maxSockets: 16 }),
  };
  return {
    post: (request) => post(request, agents),
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}

function post(
  request: HttpPost,
  agents: { "http:": http.Agent; "https:": https.Agent },
): Promise<HttpOutcome> {
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: HttpOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      resolve(outcome);
    };
    const url = new URL(request.url);
    const secure = url.protocol === "https:";
    const send = secure ? https.request : http.request;
    const req = send(url, {
      method: "POST",
      agent: secure ? agents["https:"] : agents["http:"],
      headers: {
        ...request.headers,
        "content-type": "application/json",
        "content-length": Buffer.byteLength(request.body),
      },
    });
    const drop = (outcome: HttpOutcome): void => {
      finish(outcome);
      req.destroy();
    };
    const timer = setTimeout(
      () => drop({ kind: "timed_out", durationMs: elapsed() }),
      request.timeoutMs,
    );
    const onAbort = (): void => drop({ kind: "aborted", durationMs: elapsed() });
    if (request.signal?.aborted) return onAbort();
    request.signal?.addEventListener("abort", onAbort, { once: true });
    req.on("error", (error) =>
      finish({ kind: "failed", error: error.message, durationMs: elapsed() }),
    );
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > request.maxBytes) return drop({ kind: "too_large", durationMs: elapsed() });
        chunks.push(chunk);
      });
      res.on("error", (error) =>
        finish({ kind: "failed", error: error.message, durationMs: elapsed() }),
      );
      res.on("end", () =>
        finish({
          kind: "answered",
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks).toString("utf8"),
          durationMs: elapsed(),
        }),
      );
    });
    req.end(request.body);
  });
}
