/**
 * The session's HTTP client for `http` hooks: one keep-alive agent per
 * protocol, so the hundredth call to the same server reuses a connection
 * instead of opening one (bench/hooks-http.ts). Node's own `http`/`https`:
 * fetch (undici) would do, but its timeouts and body cap are not per request
 * without more code than this, and it follows redirects unless told (decision 0032).
 * A redirect is never followed: the URL the user allowed is the only one posted to.
 *
 * Both modules load at the first post, through `process.getBuiltinModule`: an
 * ES import of `node:http` loads all of undici (its module namespace reads
 * http's lazy `WebSocket` getters), and `node:https` loads TLS — ~50 ms of a
 * start that may never post (decision 0067).
 */
import type { Agent as HttpAgent } from "node:http";
import type { Agent as HttpsAgent } from "node:https";

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

interface Agents {
  "http:"?: HttpAgent;
  "https:"?: HttpsAgent;
}

export function createHttpHookClient(): HttpHookClient {
  const agents: Agents = {};
  return {
    post: (request) => post(request, agents),
    close() {
      agents["http:"]?.destroy();
      agents["https:"]?.destroy();
    },
  };
}

const AGENT_OPTIONS = { keepAlive: true, keepAliveMsecs: KEEP_ALIVE_MS, maxSockets: 16 };

/** The module and the session's agent for `secure` or plain http, made at its first post. */
function transport(secure: boolean, agents: Agents) {
  if (secure) {
    const https = process.getBuiltinModule("node:https");
    agents["https:"] ??= new https.Agent(AGENT_OPTIONS);
    return { request: https.request, agent: agents["https:"] };
  }
  const http = process.getBuiltinModule("node:http");
  agents["http:"] ??= new http.Agent(AGENT_OPTIONS);
  return { request: http.request, agent: agents["http:"] };
}

function post(request: HttpPost, agents: Agents): Promise<HttpOutcome> {
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
    const { request: send, agent } = transport(url.protocol === "https:", agents);
    const req = send(url, {
      method: "POST",
      agent,
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
