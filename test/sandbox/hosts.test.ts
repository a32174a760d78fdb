import { describe, expect, it } from "vitest";
import { hostAllowed, hostMatches, localPorts } from "../../source/sandbox/hosts.js";

describe("host patterns", () => {
  it.each([
    ["api.github.com", "api.github.com", 443, true],
    ["api.github.com", "github.com", 443, false],
    ["*.npmjs.org", "registry.npmjs.org", 443, true],
    ["*.npmjs.org", "npmjs.org", 443, false],
    ["*.npmjs.org", "evilnpmjs.org", 443, false],
    ["127.0.0.1:8080", "127.0.0.1", 8080, true],
    ["127.0.0.1:8080", "127.0.0.1", 8081, false],
    ["*", "anything.example", 1, true],
  ])("%s matches %s:%d → %s", (pattern, host, port, expected) => {
    expect(hostMatches(pattern, host, port)).toBe(expected);
  });

  it("deny wins over allow", () => {
    expect(hostAllowed("x.example.com", 443, ["*.example.com"], ["x.example.com"])).toBe(false);
    expect(hostAllowed("y.example.com", 443, ["*.example.com"], ["x.example.com"])).toBe(true);
  });

  it("local ports of 127.0.0.1:PORT and localhost:PORT entries", () => {
    expect(
      localPorts(["127.0.0.1:80", "localhost:9000", "api.github.com:443", "127.0.0.1"]),
    ).toEqual([80, 9000]);
  });
});
