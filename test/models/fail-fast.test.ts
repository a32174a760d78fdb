import { APICallError } from "ai";
import { describe, expect, it } from "vitest";
import { failsTheSameAgain, isLoopbackHost } from "../../source/models/fail-fast.js";

function connectError(url: string, cause: unknown): APICallError {
  return new APICallError({
    message: "Cannot connect to API: connect failed",
    url,
    requestBodyValues: {},
    cause,
    isRetryable: true,
  });
}

const refused = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
const reset = Object.assign(new Error("socket hang up"), { code: "ECONNRESET" });

describe("fail fast", () => {
  it.each([
    ["localhost", true],
    ["api.localhost", true],
    ["127.0.0.1", true],
    ["127.1.2.3", true],
    ["[::1]", true],
    ["0.0.0.0", true],
    ["10.0.0.5", false],
    ["api.openai.com", false],
    ["127.0.0.1.example.com", false],
  ])("isLoopbackHost(%s) → %s", (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });

  it("a refused connection to this machine, found through fetch's cause chain, is not retried", () => {
    const fetchFailed = new TypeError("fetch failed", { cause: refused });
    expect(failsTheSameAgain(connectError("http://localhost:11434/v1/chat", fetchFailed))).toBe(
      true,
    );
    expect(failsTheSameAgain(connectError("http://127.0.0.1:8080/v1/chat", refused))).toBe(true);
  });

  it("a bad port is not retried, wherever it points", () => {
    expect(
      failsTheSameAgain(connectError("http://example.com:1/v1", new TypeError("bad port"))),
    ).toBe(true);
  });

  it("other hosts, other failures and HTTP errors keep their retries", () => {
    expect(failsTheSameAgain(connectError("https://proxy.example.com/v1", refused))).toBe(false);
    expect(failsTheSameAgain(connectError("http://localhost:1234/v1", reset))).toBe(false);
    const http = new APICallError({
      message: "overloaded",
      url: "http://localhost:1234/v1",
      requestBodyValues: {},
      statusCode: 503,
      cause: refused,
    });
    expect(failsTheSameAgain(http)).toBe(false);
    expect(failsTheSameAgain(refused)).toBe(false);
  });
});
