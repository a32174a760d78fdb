/**
 * The bundle without comments and layout (scripts/bundle-compact.mjs) and
 * without the AI SDK's gateway provider (scripts/bundle-gateway.mjs), both
 * decision 0077.
 */
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { compactChunk } from "../../scripts/bundle-compact.mjs";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { checkGatewayImport, NO_GATEWAY } from "../../scripts/bundle-gateway.mjs";
import { REPO_ROOT } from "../support/run-acai.js";

const BUNDLE = path.join(REPO_ROOT, "dist", "bundle");

async function bundleTexts(): Promise<Map<string, string>> {
  const names = (await readdir(BUNDLE)).filter((name) => name.endsWith(".js"));
  const texts = await Promise.all(names.map((name) => readFile(path.join(BUNDLE, name), "utf8")));
  return new Map(names.map((name, i) => [name, texts[i] ?? ""]));
}

/** The gateway package's own authentication error class, as `ai` resolves it (not a dependency of acai's). */
async function realAuthenticationError(): Promise<{
  new (options: { message: string }): Error;
  isInstance(error: unknown): boolean;
}> {
  const gateway = createRequire(import.meta.resolve("ai")).resolve("@ai-sdk/gateway");
  return (await import(pathToFileURL(gateway).href)).GatewayAuthenticationError;
}

/** Runs an ES module's text and returns its exports. */
async function runModule(text: string): Promise<Record<string, unknown>> {
  return import(`data:text/javascript;base64,${Buffer.from(text).toString("base64")}`);
}

describe("a compacted chunk", () => {
  const chunk = [
    'import { unused, used } from "./chunk-A.js";',
    "// source/a.ts",
    "/** A JSDoc that goes. */",
    "function greet(name) {",
    "  // a line comment that goes",
    '  const text = "hello " + name;',
    "  return used(text);",
    "}",
    "/*! a legal comment that stays */",
    "// node_modules/pkg/index.js",
    "var answer = 40  +  2;",
    "export { answer, greet };",
    "",
  ].join("\n");

  it("drops comments and layout and keeps names and legal comments", () => {
    const out = compactChunk("chunk-a.js", chunk) as string;
    expect(out).not.toContain("JSDoc");
    expect(out).not.toContain("line comment");
    expect(out).toContain("/*! a legal comment that stays */");
    expect(out).toContain("function greet(name)");
    expect(out.length).toBeLessThan(chunk.length * 0.75);
  });

  it("keeps each module mark on a line of its own, before that module's code", () => {
    const out = compactChunk("chunk-a.js", chunk) as string;
    const lines = out.split("\n");
    const marks = lines.filter((line) => line.startsWith("//"));
    expect(marks).toEqual(["// source/a.ts", "// node_modules/pkg/index.js"]);
    expect(out.indexOf("// source/a.ts\n")).toBeLessThan(out.indexOf("function greet"));
    expect(out.indexOf("// node_modules/pkg/index.js\n")).toBeGreaterThan(
      out.indexOf("function greet"),
    );
    expect(out.indexOf("// node_modules/pkg/index.js\n")).toBeLessThan(out.indexOf("answer="));
  });

  it("does what the chunk did", async () => {
    const standalone = chunk.replace(
      'import { unused, used } from "./chunk-A.js";',
      "const used = (s) => s.toUpperCase();",
    );
    const before = await runModule(standalone);
    const after = await runModule(compactChunk("chunk-b.js", standalone) as string);
    expect(after.answer).toBe(42);
    expect((after.greet as (n: string) => string)("ada")).toBe("HELLO ADA");
    expect((after.greet as (n: string) => string)("ada")).toBe(
      (before.greet as (n: string) => string)("ada"),
    );
    expect((after.greet as { name: string }).name).toBe("greet");
  });
});

describe("the bundle as built", () => {
  it("has no JSDoc left, and keeps the module marks on lines of their own", async () => {
    const texts = await bundleTexts();
    const all = [...texts.values()].join("\n");
    // Comments stay only inside template literals (hooks init's templates, inline scripts).
    expect(all).not.toContain("/**\n");
    expect(all).not.toContain("The agent loop. `run()` yields");
    const marks = all
      .split("\n")
      .filter((line) => /^\/\/ (?:source|node_modules)\/\S+$/.test(line));
    expect(marks.length).toBeGreaterThan(500);
    expect(marks).toContain("// source/agent/agent.ts");
  });

  it("carries neither the AI SDK's gateway provider nor @vercel/oidc", async () => {
    const all = [...(await bundleTexts()).values()].join("\n");
    expect(all).not.toContain("// node_modules/@ai-sdk/gateway/");
    expect(all).not.toContain("// node_modules/@vercel/oidc/");
    expect(all).toContain("which acai does not bundle");
    // The AI SDK itself is there.
    expect(all).toContain("// node_modules/ai/dist/index.js\n");
  });
});

describe("the gateway's stand-in", () => {
  it("tells the gateway's errors apart as the gateway's own classes do", async () => {
    const stand = await runModule(NO_GATEWAY as string);
    const Auth = stand.GatewayAuthenticationError as { isInstance(e: unknown): boolean };
    const Any = stand.GatewayError as { isInstance(e: unknown): boolean };
    const RealAuthenticationError = await realAuthenticationError();
    const real = new RealAuthenticationError({ message: "no key" });
    expect(RealAuthenticationError.isInstance(real)).toBe(true);
    expect(Auth.isInstance(real)).toBe(true);
    expect(Any.isInstance(real)).toBe(true);
    for (const other of [new Error("plain"), null, undefined, "text", { statusCode: 401 }]) {
      expect(Auth.isInstance(other)).toBe(false);
      expect(Any.isInstance(other)).toBe(false);
    }
  });

  it("says why when a bare model id reaches the gateway", async () => {
    const stand = await runModule(NO_GATEWAY as string);
    const gateway = stand.gateway as { languageModel(id: string): unknown };
    expect(() => gateway.languageModel("openai/gpt-5")).toThrow(/acai does not bundle/);
    expect(() => (stand.createGateway as () => unknown)()).toThrow(
      /openai:MODEL or anthropic:MODEL/,
    );
  });

  it("stops the build when the AI SDK imports other names from the gateway", () => {
    const expected =
      'import { GatewayAuthenticationError, GatewayError, createGateway, gateway, gateway as gateway$1 } from "@ai-sdk/gateway";\n';
    expect(() => checkGatewayImport("ai/dist/index.js", expected)).not.toThrow();
    expect(() =>
      checkGatewayImport(
        "ai/dist/index.js",
        'import { GatewayError, gateway, newThing } from "@ai-sdk/gateway";\n',
      ),
    ).toThrow(/imports \{ GatewayError, gateway, newThing \}.*update the stand-in/);
    expect(() => checkGatewayImport("ai/dist/index.js", "export {};\n")).toThrow(
      /imports nothing it names/,
    );
  });
});
