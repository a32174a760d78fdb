/**
 * The model fetch over node:http (decision 0067) against a real server on
 * 127.0.0.1: what reaches the server, a body read as it arrives, fetch's
 * errors for each failure, undici's time limits, a compressed body, and what
 * it hands to Node's fetch.
 */
import { execFileSync } from "node:child_process";
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { createModelFetch } from "../../../source/models/http/model-fetch.js";
import { startFakeOpenAI } from "../../support/fake-openai-server.js";

interface Seen {
  method?: string;
  url?: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(
  answer: (req: http.IncomingMessage, res: http.ServerResponse, seen: Seen) => void,
): Promise<{ url: string; seen: Seen[]; sockets: Set<Socket> }> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const record: Seen = { method: req.method, url: req.url, headers: req.headers, body: "" };
    seen.push(record);
    req.on("data", (chunk) => (record.body += chunk));
    req.on("end", () => answer(req, res, record));
  });
  server.on("connection", (socket) => sockets.add(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, sockets };
}

const modelFetch = (extra: Parameters<typeof createModelFetch>[0] = { env: {} }) =>
  createModelFetch({ execArgv: [], ...extra });

async function refusedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the model fetch over node:http", () => {
  it("posts the body with the headers given and fetch's defaults, over one kept-alive connection", async () => {
    const { url, seen, sockets } = await serve((_req, res) => res.end('{"ok":true}'));
    const fetch = modelFetch();
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`${url}/v1/chat/completions`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "x-acai": `n${i}` },
        body: '{"prompt":"héllo"}',
      });
      expect(response.ok).toBe(true);
      expect(await response.json()).toEqual({ ok: true });
    }
    expect(seen).toHaveLength(2);
    expect(seen[0]).toMatchObject({
      method: "POST",
      url: "/v1/chat/completions",
      body: '{"prompt":"héllo"}',
    });
    expect(seen[0]?.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength('{"prompt":"héllo"}')),
      accept: "*/*",
      "user-agent": "node",
      "x-acai": "n0",
    });
    expect(seen[1]?.headers["x-acai"]).toBe("n1");
    expect(sockets.size).toBe(1);
  });

  it("gives the body as it arrives, not when it ends", async () => {
    let more!: () => void;
    const readFirst = new Promise<void>((resolve) => (more = resolve));
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("data: one\n\n");
      void readFirst.then(() => res.end("data: two\n\n"));
    });
    const response = await modelFetch()(url, { method: "POST", body: "{}" });
    expect(response.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    const first = await reader.read();
    expect(decoder.decode(first.value)).toBe("data: one\n\n");
    more();
    let rest = "";
    for (let read = await reader.read(); !read.done; read = await reader.read())
      rest += decoder.decode(read.value);
    expect(rest).toBe("data: two\n\n");
  });

  it("answers an error status with its body and headers readable", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(404, { "content-type": "application/json", "x-request-id": "r1" });
      res.end('{"error":{"message":"no such model"}}');
    });
    const response = await modelFetch()(url, { method: "POST", body: "{}" });
    expect(response.ok).toBe(false);
    expect(response.status).toBe(404);
    expect(response.statusText).toBe("Not Found");
    expect(response.headers.get("X-Request-Id")).toBe("r1");
    expect(await response.text()).toBe('{"error":{"message":"no such model"}}');
  });

  it("fails as fetch does when nothing listens, over http and https", async () => {
    const port = await refusedPort();
    for (const scheme of ["http", "https"]) {
      const error = await modelFetch()(`${scheme}://127.0.0.1:${port}/v1`, {
        method: "POST",
        body: "{}",
      }).catch((e: unknown) => e);
      expect(error, scheme).toBeInstanceOf(TypeError);
      expect((error as TypeError).message).toBe("fetch failed");
      expect((error as { cause?: { code?: string } }).cause?.code).toBe("ECONNREFUSED");
    }
  });

  it("rejects with the signal's reason when aborted before the answer, and closes the connection", async () => {
    let closed!: () => void;
    let arrived!: () => void;
    const gone = new Promise<void>((resolve) => (closed = resolve));
    const atServer = new Promise<void>((resolve) => (arrived = resolve));
    const { url } = await serve((req) => {
      req.socket.once("close", closed);
      arrived();
    });
    const controller = new AbortController();
    const pending = modelFetch()(url, { method: "POST", body: "{}", signal: controller.signal });
    // Aborted once the server has the request and before it answers (on a loaded machine a
    // fixed 50 ms could abort before the request arrived, and the close was never watched).
    void atServer.then(() => controller.abort());
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe("AbortError");
    await gone;
    const already = AbortSignal.abort(new Error("stopped by the user"));
    await expect(modelFetch()(url, { signal: already })).rejects.toThrow("stopped by the user");
  });

  it("errors the body with the signal's reason when aborted in the middle of it", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200);
      res.write("part");
    });
    const controller = new AbortController();
    const response = await modelFetch()(url, {
      method: "POST",
      body: "{}",
      signal: controller.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    controller.abort(new Error("user abort"));
    await expect(reader.read()).rejects.toThrow("user abort");
  });

  it("errors the body with fetch's `terminated` when the connection drops in the middle of it", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "100" });
      res.write("only part");
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const response = await modelFetch()(url, { method: "POST", body: "{}" });
    const error = await response.text().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe("terminated");
  });

  it("keeps undici's time limits, with its error codes (the AI SDK retries them)", async () => {
    const { url } = await serve((req, res) => {
      if (req.url === "/body") {
        res.writeHead(200);
        res.write("first");
      }
    });
    const fetch = modelFetch({ env: {}, idleTimeoutMs: 150 });
    const waiting = await fetch(`${url}/headers`, { method: "POST", body: "{}" }).catch(
      (e: unknown) => e,
    );
    expect(waiting).toBeInstanceOf(TypeError);
    expect((waiting as { cause?: { code?: string } }).cause?.code).toBe("UND_ERR_HEADERS_TIMEOUT");
    const response = await fetch(`${url}/body`, { method: "POST", body: "{}" });
    const silent = await response.text().catch((e: unknown) => e);
    expect((silent as TypeError).message).toBe("terminated");
    expect((silent as { cause?: { code?: string } }).cause?.code).toBe("UND_ERR_BODY_TIMEOUT");
  });

  it("decodes a body the server compressed anyway", async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { "content-encoding": "gzip", "content-type": "application/json" });
      res.end(gzipSync('{"compressed":true}'));
    });
    const response = await modelFetch()(url, { method: "POST", body: "{}" });
    expect(await response.json()).toEqual({ compressed: true });
  });

  it("hands a redirected request, and one it would send differently, to fetch unchanged", async () => {
    const { url, seen } = await serve((_req, res) => {
      res.writeHead(307, { location: "/elsewhere" });
      res.end();
    });
    const handed: unknown[][] = [];
    const fallback = (async (...args: unknown[]) => {
      handed.push(args);
      return new Response("from fetch");
    }) as typeof globalThis.fetch;
    const init = { method: "POST", body: "{}" };
    const redirected = await modelFetch({ env: {}, fetch: fallback })(`${url}/v1`, init);
    expect(await redirected.text()).toBe("from fetch");
    expect(seen).toHaveLength(1);
    expect(handed).toEqual([[`${url}/v1`, init]]);
    const proxied = modelFetch({ env: { NODE_USE_ENV_PROXY: "1" }, fetch: fallback });
    await proxied(`${url}/v2`, init);
    expect(seen).toHaveLength(1);
    expect(handed[1]).toEqual([`${url}/v2`, init]);
  });

  it("carries the AI SDK's streamed chat to its end", async () => {
    const server = await startFakeOpenAI([{ text: "streamed through node:http" }]);
    try {
      const openai = createOpenAI({ baseURL: server.url, apiKey: "k", fetch: modelFetch() });
      const result = streamText({ model: openai.chat("m"), prompt: "hi" });
      expect(await result.text).toBe("streamed through node:http");
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0]?.headers["user-agent"]).toMatch(/ai-sdk/);
    } finally {
      await server.close();
    }
  });
});

describe("the model fetch's transport", () => {
  /** Which of node:http / node:https a fresh Node has loaded after making a model fetch for `baseUrl`. */
  function loadedFor(baseUrl: string, env: Record<string, string> = {}): string[] {
    const built = resolve("dist/models/http/model-fetch.js");
    const script = `
      const { createModelFetch } = await import(${JSON.stringify(built)});
      const loaded = () => ["http", "https"].filter((m) => process.moduleLoadList.includes("NativeModule " + m));
      if (loaded().length > 0) throw new Error("loaded before: " + loaded());
      createModelFetch({ env: ${JSON.stringify(env)}, baseUrl: ${JSON.stringify(baseUrl)} });
      console.log(JSON.stringify(loaded()));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    return JSON.parse(out) as string[];
  }

  it("loads with the provider the module its requests go over, not at the first request (0070)", () => {
    expect(loadedFor("http://127.0.0.1:8080/v1")).toEqual(["http"]);
    expect(loadedFor("https://api.openai.com/v1")).toEqual(["https"]);
  });

  it("loads nothing for requests that go to fetch", () => {
    expect(loadedFor("https://api.openai.com/v1", { NODE_USE_ENV_PROXY: "1" })).toEqual([]);
  });
});
