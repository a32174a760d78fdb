import { describe, expect, it } from "vitest";
import {
  absolutePattern,
  isInside,
  pathMatches,
  suggestPathRule,
} from "../../source/permissions/paths.js";

const ctx = { projectDir: "/p", homeDir: "/home/u" };

describe("absolutePattern", () => {
  it("reads patterns as Claude Code does, relative ones from the project root", () => {
    expect(absolutePattern("//etc/passwd", ctx)).toBe("/etc/passwd");
    expect(absolutePattern("~/.ssh/**", ctx)).toBe("/home/u/.ssh/**");
    expect(absolutePattern("/src/**", ctx)).toBe("/p/src/**");
    expect(absolutePattern("./.env", ctx)).toBe("/p/.env");
    expect(absolutePattern("src/**", ctx)).toBe("/p/src/**");
    expect(absolutePattern("*.env", ctx)).toBe("/p/**/*.env");
    expect(absolutePattern("build/", ctx)).toBe("/p/build/**");
  });
});

describe("pathMatches", () => {
  it("matches files, dot-files, and everything under a folder the pattern names", () => {
    expect(pathMatches("./.env", "/p/.env", ctx)).toBe(true);
    expect(pathMatches("./.env", "/p/sub/.env", ctx)).toBe(false);
    expect(pathMatches(".env", "/p/sub/.env", ctx)).toBe(true);
    expect(pathMatches("src/**", "/p/src/a/b.ts", ctx)).toBe(true);
    expect(pathMatches("src/*.ts", "/p/src/a/b.ts", ctx)).toBe(false);
    expect(pathMatches("./secrets", "/p/secrets/key.pem", ctx)).toBe(true);
    expect(pathMatches("~/.ssh/**", "/home/u/.ssh/id_rsa", ctx)).toBe(true);
    expect(pathMatches("src/**", "/q/src/a.ts", ctx)).toBe(false);
  });

  it("takes a project folder with glob characters literally", () => {
    const odd = { projectDir: "/w/[x]", homeDir: "/h" };
    expect(pathMatches("src/**", "/w/[x]/src/a.ts", odd)).toBe(true);
    expect(pathMatches("src/**", "/w/x/src/a.ts", odd)).toBe(false);
  });
});

describe("isInside and suggestPathRule", () => {
  it("tells inside from outside and writes a rule for a file", () => {
    expect(isInside("/p", "/p/a")).toBe(true);
    expect(isInside("/p", "/p")).toBe(true);
    expect(isInside("/p", "/pq/a")).toBe(false);
    expect(suggestPathRule("Edit", "/p/src/a.ts", ctx)).toBe("Edit(./src/a.ts)");
    expect(suggestPathRule("Edit", "/tmp/a.ts", ctx)).toBe("Edit(//tmp/a.ts)");
  });
});
