/**
 * The bundle is ASCII-only (scripts/bundle-ascii.mjs, decision 0060): the
 * characters outside ASCII that esbuild leaves in the comments it keeps are
 * replaced, so V8 keeps no chunk as two-byte text; a character outside ASCII
 * in code stops the build.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { asciiOnly } from "../../scripts/bundle-ascii.mjs";
import { REPO_ROOT } from "../support/run-acai.js";

const BUNDLE = path.join(REPO_ROOT, "dist", "bundle");

describe("the bundle's text", () => {
  it("is ASCII in every .js file of the built bundle", async () => {
    const names = (await readdir(BUNDLE)).filter((name) => name.endsWith(".js"));
    expect(names.length).toBeGreaterThan(50);
    const outside: string[] = [];
    for (const name of names) {
      const text = await readFile(path.join(BUNDLE, name), "utf8");
      const at = text.search(/[\u0080-\uffff]/);
      if (at >= 0) outside.push(`${name}: ${JSON.stringify(text.slice(at, at + 20))}`);
    }
    expect(outside).toEqual([]);
  });

  it("replaces characters in line, block and JSDoc comments and leaves the code as it was", () => {
    const chunk = [
      "// source/a.ts",
      "/** key → digest — kept */",
      'var a = "\\u2014"; // a dash — here',
      "/* 🙂 */ export { a };",
      "",
    ].join("\n");
    const ascii = asciiOnly("chunk-a.js", chunk) as string;
    expect(ascii).toBe(
      [
        "// source/a.ts",
        "/** key ? digest ? kept */",
        'var a = "\\u2014"; // a dash ? here',
        "/* ?? */ export { a };",
        "",
      ].join("\n"),
    );
    // Run as a module's code, both give the same value.
    const value = (text: string) => new Function(text.replace("export { a };", "return a;"))();
    expect(value(ascii)).toBe(value(chunk));
  });

  it("leaves an ASCII file untouched (the same string)", () => {
    const chunk = "// source/b.ts\nvar b = 1;\nexport { b };\n";
    expect(asciiOnly("chunk-b.js", chunk)).toBe(chunk);
  });

  it("stops at a character outside ASCII in a string, a template or a regular expression, naming the file", () => {
    for (const code of ['var s = "—";', "var t = `→`;", "var r = /é/;"]) {
      expect(() => asciiOnly("chunk-c.js", `// source/c.ts\n${code}\nexport { };\n`)).toThrow(
        /chunk-c\.js: a character outside ASCII is in code/,
      );
    }
  });
});
