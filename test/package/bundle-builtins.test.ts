/**
 * The bundle takes Node's built-ins from `process.getBuiltinModule` instead of
 * importing them (scripts/bundle-builtins.mjs, decision 0079): each import form
 * becomes bindings to the same values, hoisted as the import's were; a chunk in
 * an import cycle is left alone; forms the pass does not rewrite stop the
 * build; and the built bundle imports no built-in.
 */
import events from "node:events";
import fs from "node:fs";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import util from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  builtinOf,
  bundleWithoutFacades,
  chunkWithoutFacades,
  // @ts-expect-error -- a build script in plain JavaScript, without types
} from "../../scripts/bundle-builtins.mjs";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { parseChunk } from "../../scripts/bundle-eager.mjs";
import { REPO_ROOT } from "../support/run-acai.js";

const BUNDLE = path.join(REPO_ROOT, "dist", "bundle");

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "acai-builtins-"));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** Every import form esbuild writes, one used before its import statement (hoisting). */
const CHUNK = [
  "#!/usr/bin/env node",
  "export const early = typeof read;",
  'import{readFileSync as read,existsSync}from"node:fs";',
  'import pathModule from"node:path";',
  'import*as osModule from"os";',
  'import utilModule,{format}from"node:util";',
  'import{default as Emitter}from"node:events";',
  'import"node:process";',
  "export const got = { read, existsSync, pathModule, osModule, utilModule, format, Emitter };",
  "",
].join("\n");

async function importText(name: string, text: string): Promise<Record<string, unknown>> {
  const file = path.join(tmp, name);
  await writeFile(file, text);
  return import(`${file}?${Date.now()}`);
}

describe("a chunk's built-in imports", () => {
  it("become bindings to the same modules and exports, hoisted as imports are", async () => {
    const { text, problems } = chunkWithoutFacades("chunk-a.mjs", CHUNK);
    expect(problems).toEqual([]);
    expect(text.split("\n")[0]).toBe("#!/usr/bin/env node");
    expect(text).not.toMatch(/import[^;]*"(node:)?(fs|path|os|util|events|process)"/);
    const chunk = await importText("chunk-a.mjs", text);
    expect(chunk.early).toBe("function");
    expect(chunk.got).toEqual({
      read: fs.readFileSync,
      existsSync: fs.existsSync,
      pathModule: path,
      osModule: os,
      utilModule: util,
      format: util.format,
      Emitter: events,
    });
  });

  it("leaves other imports and a chunk without built-ins as they are", () => {
    const plain = 'import{helper}from"./chunk-B.js";export const x=helper;';
    expect(chunkWithoutFacades("chunk-b.js", plain)).toEqual({ text: plain, problems: [] });
  });

  it("reports a re-export of a built-in and a namespace whose default is read", () => {
    const reexport = chunkWithoutFacades("chunk-c.js", 'export{readFileSync}from"node:fs";');
    expect(reexport.problems).toEqual(['chunk-c.js: export{readFileSync}from"node:fs";']);
    const withDefault = chunkWithoutFacades(
      "chunk-d.js",
      'import*as fs from"node:fs";export const r=fs.default.readFileSync;',
    );
    expect(withDefault.problems).toHaveLength(1);
    expect(withDefault.text).toContain('import*as fs from"node:fs"');
    const dollar = chunkWithoutFacades(
      "chunk-e.js",
      'import*as fs$1 from"fs";export const r=fs$1.default;',
    );
    expect(dollar.problems).toHaveLength(1);
    // `.default` of another name, or a longer property, is not the namespace's default.
    const other = chunkWithoutFacades(
      "chunk-f.js",
      'import*as fs from"node:fs";export const r=[xfs.default,fs.defaults];',
    );
    expect(other.problems).toEqual([]);
    expect(other.text).toContain('const fs=globalThis.process.getBuiltinModule("node:fs");');
  });

  it("names built-ins with and without node:, and nothing else", () => {
    expect(builtinOf("node:fs")).toBe("node:fs");
    expect(builtinOf("fs/promises")).toBe("node:fs/promises");
    expect(builtinOf("node:sqlite")).toBe("node:sqlite");
    // A prefix-only built-in: bare, the name is a package's.
    expect(builtinOf("sqlite")).toBeUndefined();
    expect(builtinOf("zod")).toBeUndefined();
    expect(builtinOf("./chunk-A.js")).toBeUndefined();
  });
});

describe("a bundle folder", () => {
  it("is rewritten chunk by chunk, leaving the chunks of an import cycle alone", async () => {
    const one = 'import{b}from"./chunk-two.js";import fs from"node:fs";export const a=()=>fs;';
    const two = 'import{a}from"./chunk-one.js";import os from"node:os";export const b=()=>os;';
    const lone = 'import path from"node:path";export const c=path.sep;';
    await writeFile(path.join(tmp, "chunk-one.js"), one);
    await writeFile(path.join(tmp, "chunk-two.js"), two);
    await writeFile(path.join(tmp, "chunk-lone.js"), lone);
    const done = bundleWithoutFacades(tmp);
    expect(done).toEqual({
      files: 3,
      rewritten: 1,
      inCycles: ["chunk-one.js", "chunk-two.js"],
      problems: [],
    });
    expect(await readFile(path.join(tmp, "chunk-one.js"), "utf8")).toBe(one);
    expect(await readFile(path.join(tmp, "chunk-lone.js"), "utf8")).toBe(
      'const path=globalThis.process.getBuiltinModule("node:path");export const c=path.sep;',
    );
  });

  it("as built imports no built-in statically", async () => {
    const names = (await readdir(BUNDLE)).filter((name) => name.endsWith(".js"));
    const left: string[] = [];
    for (const name of names) {
      const file = parseChunk(name, await readFile(path.join(BUNDLE, name), "utf8"));
      for (const statement of file.statements) {
        const from = statement.moduleSpecifier?.text;
        if (typeof from === "string" && builtinOf(from) !== undefined)
          left.push(`${name}: ${from}`);
      }
    }
    expect(names.length).toBeGreaterThan(10);
    expect(left).toEqual([]);
  });
});
