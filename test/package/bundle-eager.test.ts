/**
 * The bundle's chunk-level functions compile eagerly, so Node's compile cache
 * holds them (scripts/bundle-eager.mjs, decision 0057): the rewrite keeps what
 * the chunk does, leaves a chunk in an import cycle alone, and its functions do
 * land in the compile cache of the Node that runs the tests.
 */
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  chunksInCycles,
  eagerBundle,
  eagerChunk,
  staticImports,
  // @ts-expect-error -- a build script in plain JavaScript, without types
} from "../../scripts/bundle-eager.mjs";
// @ts-expect-error -- a build script in plain JavaScript, without types
import { usedFunctions } from "../../scripts/bundle-training.mjs";
import { REPO_ROOT } from "../support/run-acai.js";

const BUNDLE = path.join(REPO_ROOT, "dist", "bundle");

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "acai-eager-"));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

/** A chunk that calls its functions before their declarations, as hoisting allows. */
const CHUNK = `import path from "node:path";
export const early = [double(2), named.name, typeof later];
const arrow = (x) => x + 1;
const expression = function (x) { return x * 3; };
function double(x) { return x * 2; }
async function later() { return "later"; }
function* counter() { yield 1; yield 2; }
function named() { return named; }
export function exported() { return "exported"; }
class Box { open() { function inner() { return 1; } return inner(); } }
export const results = [arrow(1), expression(2), [...counter()], named() === named, new Box().open(), path.sep];
export { later, exported as alias };
`;

async function importText(name: string, text: string): Promise<Record<string, unknown>> {
  const file = path.join(tmp, name);
  await writeFile(file, text);
  return import(pathToFileURL(file).href);
}

describe("a chunk made eager", () => {
  it("does what it did: functions callable before their place, names kept, async and generators kept", async () => {
    const before = await importText("before.mjs", CHUNK);
    const after = await importText("after.mjs", eagerChunk("after.mjs", CHUNK));
    expect(after.early).toEqual(before.early);
    expect(after.early).toEqual([4, "named", "function"]);
    expect(after.results).toEqual(before.results);
    expect(await (after.later as () => Promise<string>)()).toBe("later");
    expect((after.alias as () => string)()).toBe("exported");
  });

  it("turns chunk-level declarations into parenthesized expressions before the first statement", () => {
    const text = eagerChunk("chunk.js", CHUNK);
    const lines = text.split("\n");
    expect(lines[0]).toBe('import path from "node:path";');
    expect(lines[1]).toBe("var double = (function (x) { return x * 2; });");
    expect(text).toContain("var later = (async function () {");
    expect(text).toContain("var counter = (function* () {");
    expect(text).toContain("var named = (function () { return named; });");
    expect(text).toContain("const arrow = ((x) => x + 1);");
    expect(text).toContain("const expression = (function (x) { return x * 3; });");
    expect(text).not.toMatch(/^(async )?function/m);
    // Left as they were: an exported declaration, a class and what is inside it.
    expect(text).toContain('export function exported() { return "exported"; }');
    expect(text).toContain(
      "class Box { open() { function inner() { return 1; } return inner(); } }",
    );
  });

  it("keeps each line under its module's mark (what the bundle's tests and readers go by)", () => {
    const chunk = `import a from "./chunk-A.js";

// source/one.ts
var x = f();
function f() { return a; }

// source/two.ts
function g() { return new URL("./two.json", import.meta.url); }
var y = g();
`;
    expect(eagerChunk("chunk.js", chunk)).toBe(`import a from "./chunk-A.js";
// source/one.ts
var f = (function () { return a; });
// source/two.ts
var g = (function () { return new URL("./two.json", import.meta.url); });


// source/one.ts
var x = f();


// source/two.ts

var y = g();
`);
  });

  it("makes eager only the functions the training start used (V8 names them by their parenthesis)", () => {
    const chunk = `function used(a) { return a; }
function unused(b) { return b; }
const usedArrow = (x) => x;
const unusedArrow = async (y) => y;
export { used, unused, usedArrow, unusedArrow };
`;
    const positions = new Set([chunk.indexOf("(a)"), chunk.indexOf("(x)")]);
    const text = eagerChunk("chunk.js", chunk, positions);
    expect(text).toContain("var used = (function (a) { return a; });");
    expect(text).toContain("const usedArrow = ((x) => x);");
    expect(text).toContain("function unused(b) { return b; }");
    expect(text).toContain("const unusedArrow = async (y) => y;");
    expect(eagerChunk("chunk.js", chunk, new Set())).toBe(chunk);
  });

  it("makes the nested functions the training start used eager, inside a hoisted declaration too (decision 0080)", async () => {
    const chunk = `const maker = (n) => function named() { return n; };
const already = ((y) => y);
class Keeper { run() { return [1, 2].map((w) => w + 1); } }
export const results = [outer([1, 2]), maker(5)(), already(3), new Keeper().run(), new function () { this.k = 1; }().k];
function outer(list) { const twice = (x) => x * 2; const skip = (x) => x; return list.map((v) => twice(v)).concat([skip(0)]); }
`;
    const at = (text: string) => chunk.indexOf(text);
    const positions = new Set([
      at("(list)"),
      at("(x) => x * 2"),
      at("(v) => twice"),
      at("(n) =>"),
      at("() { return n"),
      at("(y) => y"),
      at("(w) =>"),
      at("() { this.k"),
    ]);
    const text = eagerChunk("chunk.js", chunk, positions);
    expect(text).toContain(
      "var outer = (function (list) { const twice = ((x) => x * 2); const skip = (x) => x; return list.map(((v) => twice(v))).concat([skip(0)]); });",
    );
    expect(text).toContain("const maker = ((n) => (function named() { return n; }));");
    expect(text).toContain("const already = ((y) => y);");
    expect(text).toContain("class Keeper { run() { return [1, 2].map(((w) => w + 1)); } }");
    expect(text).toContain("new (function () { this.k = 1; })().k]");
    expect(eagerChunk("chunk.js", chunk, new Set())).toBe(chunk);
    const before = await importText("nested-before.mjs", chunk);
    const after = await importText("nested-after.mjs", text);
    expect(after.results).toEqual(before.results);
    expect(after.results).toEqual([[2, 4, 0], 5, 3, [2, 3], 1]);
  });

  it("makes a used module body esbuild wrapped eager (__esm, __commonJS), an unused one left (decision 0062)", async () => {
    const chunk = `var __getOwnPropNames = Object.getOwnPropertyNames;
var __esm = (fn, res) => function __init() { return fn && (res = (0, fn[__getOwnPropNames(fn)[0]])(fn = 0)), res; };
var __commonJS = (cb, mod) => function __require() { return mod || (0, cb[__getOwnPropNames(cb)[0]])((mod = { exports: {} }).exports, mod), mod.exports; };
export var ran = [];
var used;
var init_used = __esm({
  "source/used.ts"() { used = 6 * 7; ran.push("used"); }
});
var init_later = __esm({
  async "source/later.ts"() { ran.push("later"); }
});
var require_pkg = __commonJS({
  "node_modules/pkg/index.js"(exports, module) { module.exports = { name: "pkg" }; }
});
var init_unused = __esm({
  "source/unused.ts"() { ran.push("unused"); }
});
export function run() { init_used(); init_used(); return [used, require_pkg().name, init_later()]; }
`;
    const positions = new Set(
      ['"source/used.ts"()', 'async "source/later.ts"()', '"node_modules/pkg/index.js"(e'].map(
        (head) => chunk.indexOf("(", chunk.indexOf(head) + 1),
      ),
    );
    const text = eagerChunk("chunk.js", chunk, positions);
    expect(text).toContain('"source/used.ts": (function () { used = 6 * 7; ran.push("used"); })');
    expect(text).toContain('"source/later.ts": (async function () { ran.push("later"); })');
    expect(text).toContain('"node_modules/pkg/index.js": (function (exports, module) {');
    expect(text).toContain('"source/unused.ts"() { ran.push("unused"); }');
    for (const [name, source] of [
      ["wrapped-before.mjs", chunk],
      ["wrapped-after.mjs", text],
    ] as const) {
      const module = await importText(name, source);
      expect(module.ran).toEqual([]);
      const [answer, pkg, later] = (module.run as () => [number, string, Promise<void>])();
      await later;
      expect([answer, pkg, module.ran]).toEqual([42, "pkg", ["used", "later"]]);
    }
  });

  it("refuses a chunk it cannot parse, naming it", () => {
    expect(() => eagerChunk("chunk-BAD.js", "function (")).toThrow(/chunk-BAD\.js: cannot parse/);
  });
});

describe("chunks in an import cycle", () => {
  it("are found from the static imports and re-exports", () => {
    const imports = new Map<string, string[]>([
      ["a.js", staticImports("a.js", 'import { b } from "./b.js";\nexport const a = b;')],
      ["b.js", staticImports("b.js", 'export { a } from "./a.js";\nexport const b = 1;')],
      [
        "c.js",
        staticImports("c.js", 'import "./a.js";\nimport("./d.js");\nimport x from "node:fs";'),
      ],
      ["d.js", staticImports("d.js", 'import "./d.js";')],
      ["e.js", []],
    ]);
    expect(imports.get("c.js")).toEqual(["a.js"]);
    expect([...chunksInCycles(imports)].sort()).toEqual(["a.js", "b.js", "d.js"]);
  });

  it("are left as esbuild wrote them; the others are rewritten", async () => {
    const a =
      'import { b } from "./b.js";\nexport function a() { return b(); }\nfunction helperA() {}\n';
    const b =
      'import { a } from "./a.js";\nexport function b() { return 1; }\nfunction helperB() {}\n';
    const c =
      'import { a } from "./a.js";\nfunction helperC() { return a(); }\nexport { helperC };\n';
    await Promise.all([
      writeFile(path.join(tmp, "a.js"), a),
      writeFile(path.join(tmp, "b.js"), b),
      writeFile(path.join(tmp, "c.js"), c),
    ]);
    const everything = (text: string) => new Set([...text.matchAll(/\(/g)].map((m) => m.index));
    const used = new Map([
      ["a.js", everything(a)],
      ["b.js", everything(b)],
      ["c.js", everything(c)],
    ]);
    expect(eagerBundle(tmp, used)).toEqual({ files: 3, rewritten: 1, inCycles: ["a.js", "b.js"] });
    expect(await readFile(path.join(tmp, "a.js"), "utf8")).toBe(a);
    expect(await readFile(path.join(tmp, "b.js"), "utf8")).toBe(b);
    expect(await readFile(path.join(tmp, "c.js"), "utf8")).toContain(
      "var helperC = (function () { return a(); });",
    );
  });
});

describe("the training start's log", () => {
  it("gives, per bundle file, the positions of the functions V8 compiled or ran, and nothing else", () => {
    const dir = path.join(tmp, "bundle");
    const log = [
      `script-details,7,${pathToFileURL(path.join(dir, "chunk-A.js")).href},0,0,`,
      `script-details,8,${pathToFileURL(path.join(tmp, "elsewhere", "x.js")).href},0,0,`,
      "script-details,9,node:internal/x,0,0,",
      "function,parse-function,7,120,200,0.1,100,f",
      "function,interpreter,7,120,200,0.1,101,f",
      "function,first-execution,7,300,320,0,102,g",
      "function,preparse-resolution,7,400,420,0,103,h",
      "function,parse-function,8,10,20,0.1,104,elsewhere",
      "function,parse-function,9,10,20,0.1,105,builtin",
      "function,parse-function,99,10,20,0.1,106,unknown",
    ].join("\n");
    expect(usedFunctions(log, dir)).toEqual(new Map([["chunk-A.js", new Set([120, 300])]]));
  });
});

describe("the bundle as built", () => {
  /** Every bundle file's text, joined. */
  async function bundleText(): Promise<string> {
    const names = (await readdir(BUNDLE)).filter((name) => name.endsWith(".js"));
    return (await Promise.all(names.map((name) => readFile(path.join(BUNDLE, name), "utf8")))).join(
      "\n",
    );
  }

  it.skipIf(process.platform === "win32")(
    "has eager the functions a trusted project's start runs (the training's second start, decision 0061)",
    async () => {
      const text = await bundleText();
      // The empty folder's start runs these too: eager before and after.
      expect(text).toContain("var assessProject = (async function");
      // Only a project with hooks: its manifest, its settings hooks, a hook's run and its answer.
      for (const name of [
        "trustedSetManifest",
        "loadSettingsHooks",
        "runSpawned",
        "decodeRunResult",
      ]) {
        expect(text).toMatch(new RegExp(`var ${name} = \\((async )?function`));
      }
      // Never run by `acai -p`: left lazy.
      expect(text).toMatch(/function trustProject\(/);
    },
  );
});

/** The size of the compile cache Node writes for a module that imports `module`. */
async function compileCacheSize(name: string, module: string): Promise<number> {
  const dir = path.join(tmp, name);
  const cacheDir = path.join(dir, "cache");
  await mkdir(cacheDir, { recursive: true });
  await writeFile(path.join(dir, "m.mjs"), module);
  const entry = `import module from "node:module"; module.enableCompileCache(${JSON.stringify(cacheDir)}); await import("./m.mjs");`;
  await writeFile(path.join(dir, "entry.mjs"), entry);
  execFileSync(process.execPath, [path.join(dir, "entry.mjs")], { env: {}, stdio: "ignore" });
  let size = 0;
  for (const sub of await readdir(cacheDir)) {
    for (const file of await readdir(path.join(cacheDir, sub))) {
      size += (await stat(path.join(cacheDir, sub, file))).size;
    }
  }
  return size;
}

describe("the compile cache", () => {
  it("holds a chunk-level function's code once the chunk is made eager (and not before)", async () => {
    const body = Array.from({ length: 2000 }, (_, i) => `  total += ${i} * Math.sqrt(${i});`);
    const module = `function big() {\n  let total = 0;\n${body.join("\n")}\n  return total;\n}\nexport const value = 1;\nexport { big };\n`;
    const lazy = await compileCacheSize("lazy", module);
    const eager = await compileCacheSize("eager", eagerChunk("m.mjs", module));
    // The 2,000-line body compiled is tens of kilobytes; the module's top level alone, ~1.
    expect(lazy).toBeGreaterThan(0);
    expect(eager).toBeGreaterThan(lazy * 10);
  });

  it("holds a used nested function's code with its parent's once it is made eager (decision 0080)", async () => {
    const body = Array.from({ length: 2000 }, (_, i) => `    total += ${i} * Math.sqrt(${i});`);
    const module = `function outer() {\n  const inner = () => {\n    let total = 0;\n${body.join("\n")}\n    return total;\n  };\n  return inner;\n}\nexport const value = 1;\nexport { outer };\n`;
    const used = new Set([module.indexOf("()"), module.indexOf("() =>")]);
    const parentOnly = await compileCacheSize(
      "parent",
      eagerChunk("m.mjs", module, new Set([module.indexOf("()")])),
    );
    const both = await compileCacheSize("both", eagerChunk("m.mjs", module, used));
    // The parent alone is a few lines of bytecode; with the 2,000-line arrow, tens of kilobytes.
    expect(parentOnly).toBeGreaterThan(0);
    expect(both).toBeGreaterThan(parentOnly * 10);
  });
});

describe("the built bundle", () => {
  it("has what an acai -p start runs eager, and what it does not run lazy", async () => {
    const texts = await Promise.all(
      (await readdir(BUNDLE))
        .filter((file) => file.endsWith(".js"))
        .map((file) => readFile(path.join(BUNDLE, file), "utf8")),
    );
    const all = texts.join("\n");
    // The headless run and zod's schema constructor run before every first request.
    expect(all).toMatch(/^var runHeadless = \(async function \(/m);
    expect(all).toMatch(/^var \$constructor = \(function \(/m);
    // `acai hooks init` and the REPL's mount never run in `acai -p`.
    expect(all).toMatch(/\basync function initHook\(/);
    expect(all).toMatch(/\basync function mountRepl\(/);
    // Module bodies run at their first require (decision 0062): the headless run's body
    // runs, eager; `acai hooks init`'s is in the bundle but never runs in `acai -p`.
    expect(all).toMatch(/"source\/cli\/headless\.ts": \(function \(\)\s*\{/);
    expect(all).toMatch(/"source\/cli\/hooks\/init\.ts"\(\)\s*\{/);
  });
});
