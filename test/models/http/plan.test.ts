/** Which requests the model fetch sends itself, and which go to Node's fetch unchanged (decision 0067). */
import { describe, expect, it } from "vitest";
import { directTransport, type FetchInit, planRequest } from "../../../source/models/http/plan.js";

const quiet = { env: {}, execArgv: [] };
const post: FetchInit = {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: "{}",
};

describe("planRequest", () => {
  it("sends a JSON post to an http(s) URL itself, its headers as Headers", () => {
    for (const url of [
      "http://127.0.0.1:8080/v1/chat/completions",
      "https://api.openai.com/v1/responses",
    ]) {
      const plan = planRequest(url, { ...post, signal: new AbortController().signal }, quiet);
      expect(plan.kind).toBe("direct");
      if (plan.kind !== "direct") continue;
      expect(plan.request.url.href).toBe(url);
      expect(plan.request.method).toBe("POST");
      expect(plan.request.headers.get("Content-Type")).toBe("application/json");
      expect(plan.request.body).toBe("{}");
    }
    const get = planRequest(new URL("http://localhost:11434/v1/models"), undefined, quiet);
    expect(get).toMatchObject({ kind: "direct", request: { method: "GET", body: undefined } });
  });

  it("hands to fetch what it would do differently, saying why", () => {
    const cases: Array<
      [
        unknown,
        FetchInit | undefined,
        typeof quiet | { env: Record<string, string>; execArgv: string[] },
        RegExp,
      ]
    > = [
      [{ url: "http://x/" }, post, quiet, /not a URL/],
      ["not a url", post, quiet, /not a URL/],
      ["file:///etc/passwd", undefined, quiet, /scheme file:/],
      ["http://user:secret@host/", post, quiet, /credentials/],
      ["http://127.0.0.1:1/", post, quiet, /port 1\b/],
      ["http://127.0.0.1:6667/", post, quiet, /port 6667/],
      ["http://127.0.0.1:8080/", { ...post, redirect: "manual" }, quiet, /option redirect/],
      [
        "http://127.0.0.1:8080/",
        { ...post, body: new ReadableStream() },
        quiet,
        /not a string or bytes/,
      ],
      ["http://127.0.0.1:8080/", { method: "GET", body: "x" }, quiet, /GET or HEAD/],
      ["http://127.0.0.1:8080/", post, { env: { NODE_USE_ENV_PROXY: "1" }, execArgv: [] }, /proxy/],
      ["http://127.0.0.1:8080/", post, { env: {}, execArgv: ["--use-env-proxy"] }, /proxy/],
      [
        "http://127.0.0.1:8080/",
        post,
        { env: { NODE_OPTIONS: "--max-old-space-size=4096 --use-env-proxy" }, execArgv: [] },
        /proxy/,
      ],
    ];
    for (const [input, init, context, reason] of cases) {
      const plan = planRequest(input, init, context);
      expect(plan.kind, String(input)).toBe("fetch");
      if (plan.kind === "fetch") expect(plan.reason).toMatch(reason);
    }
  });

  it("keeps the ports every server uses, and a proxy variable that is off", () => {
    for (const url of [
      "http://h/",
      "https://h/",
      "http://h:80/",
      "https://h:443/",
      "http://h:1024/",
      "http://h:11434/",
    ]) {
      expect(planRequest(url, post, quiet).kind, url).toBe("direct");
    }
    expect(
      planRequest("http://h/", post, { env: { NODE_USE_ENV_PROXY: "0" }, execArgv: [] }).kind,
    ).toBe("direct");
    expect(
      planRequest("http://h/", post, { env: { HTTPS_PROXY: "http://proxy:3128" }, execArgv: [] })
        .kind,
    ).toBe("direct");
  });

  it("refuses a bad header as fetch does (a TypeError)", () => {
    expect(() => planRequest("http://h/", { headers: { "bad name": "x" } }, quiet)).toThrow(
      TypeError,
    );
  });
});

describe("directTransport", () => {
  it("names the module a direct request to the base URL goes over", () => {
    expect(directTransport("http://127.0.0.1:8080/v1", quiet)).toBe("node:http");
    expect(directTransport("https://api.openai.com/v1", quiet)).toBe("node:https");
  });

  it("names none where the requests go to fetch, or the URL does not parse", () => {
    const proxied = { env: { NODE_USE_ENV_PROXY: "1" }, execArgv: [] };
    expect(directTransport("https://api.openai.com/v1", proxied)).toBeUndefined();
    expect(directTransport("http://user:secret@host/v1", quiet)).toBeUndefined();
    expect(directTransport("http://127.0.0.1:25/v1", quiet)).toBeUndefined();
    expect(directTransport("ftp://host/v1", quiet)).toBeUndefined();
    expect(directTransport("not a url", quiet)).toBeUndefined();
  });
});
