/**
 * The bundle's dynamic imports of source modules made lazy requires
 * (scripts/bundle-lazy.mjs, decision 0062): which are rewritten and which are
 * kept, that a module so bundled still runs only when reached, once, with a
 * failure still a rejected promise, and that the build's check names a package
 * left to Node that a start loaded. The modules no `acai -p` reaches (COLD)
 * load through one entry of their own: a file of their own, read only when
 * one is asked for, sharing its importers' modules, not copies.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// @ts-expect-error -- a build script in plain JavaScript, without types
import * as bundleLazy from "../../scripts/bundle-lazy.mjs";

const { COLD_SPECIFIER, coldModules, externalsLoaded, lazyRequires } = bundleLazy;

let tmp: string;
beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "acai-lazy-"));
});
afterEach(async () => {
  await rm(tmp, { recursive: true, force: true });
});

const SOURCE = "/repo/source";
const rewrite = (file: string, text: string): string =>
  lazyRequires(SOURCE, path.join(SOURCE, file), text);

describe("which dynamic imports become lazy requires", () => {
  it("rewrites a literal import() of a source module, and only that", () => {
    const text = `type Ui = typeof import("./mount.js");
let t: import("./types.js").T;
const a = await import("./headless.js");
const b = () => import('../session/prepare.js');
const c = await import("yaml");
const d = await import(name);
const e = await import("node:sqlite");
`;
    expect(rewrite("cli/run.ts", text)).toBe(`type Ui = typeof import("./mount.js");
let t: import("./types.js").T;
const a = await Promise.resolve().then(() => require("./headless.js"));
const b = () => Promise.resolve().then(() => require("../session/prepare.js"));
const c = await import("yaml");
const d = await import(name);
const e = await import("node:sqlite");
`);
  });

  it("keeps the CLI's first module, the REPL and its later stages, and the Bash parser where import() loads them", () => {
    const main = 'const { runFromProcess } = await import("./run.js");\n';
    expect(rewrite("cli/main.ts", main)).toBe(main);
    const kept = [
      ["cli/repl-entry.ts", 'await import("../repl/start.js")'],
      ["repl/load-ui.ts", 'await import("./mount.js")'],
      ["repl/markdown/load.ts", 'import("./render.js")'],
      ["session/services.ts", 'await import("../permissions/shell/parser.js")'],
    ];
    for (const [file, text] of kept) expect(rewrite(file ?? "", text ?? ""), file).toBe(text);
    // Their neighbours are rewritten.
    expect(rewrite("repl/controller.ts", 'await import("./history.js")')).toContain("require(");
    expect(rewrite("cli/run.ts", 'await import("./headless.js")')).toContain("require(");
  });

  it("keeps the plugin worker's modules, entries of their own already, where import() loads them", () => {
    const text =
      'await Promise.all([import("./plugin-runtime.js"), import("./relay-shape.js"), import("./worker-a3s.js")]);';
    expect(rewrite("hooks/run/plugins/in-process.ts", text)).toBe(text);
  });

  it("loads a module no acai -p reaches (a subcommand, telemetry, MCP, the relay) through the cold entry, from anywhere", () => {
    const cold = (target: string) =>
      `import("${COLD_SPECIFIER}").then((cold) => cold.load("${target}"))`;
    expect(rewrite("cli/subcommands.ts", 'await import("./hooks/command.js")')).toBe(
      `await ${cold("cli/hooks/command.ts")}`,
    );
    expect(rewrite("session/telemetry.ts", 'await import("../telemetry/session.js")')).toBe(
      `await ${cold("telemetry/session.ts")}`,
    );
    expect(rewrite("session/services.ts", 'await import("../mcp/connect.js")')).toBe(
      `await ${cold("mcp/connect.ts")}`,
    );
    expect(rewrite("cli/commands/mcp-list.ts", 'await import("../../mcp/connect.js")')).toBe(
      `await ${cold("mcp/connect.ts")}`,
    );
    expect(rewrite("relay/open.ts", 'await import("./nats.js")')).toBe(
      `await ${cold("relay/nats.ts")}`,
    );
  });
});

/** Bundles `files` (name → source under tmp/source) from `entry` as scripts/bundle.mjs does, with the rewrite. */
async function bundleFixture(
  files: Record<string, string>,
  entry: string,
  cold?: Set<string>,
): Promise<string[]> {
  const sourceDir = path.join(tmp, "source");
  await mkdir(sourceDir, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await writeFile(path.join(sourceDir, name), text);
  }
  await build({
    absWorkingDir: tmp,
    entryPoints: { main: path.join(sourceDir, entry) },
    outdir: path.join(tmp, "out"),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    logLevel: "silent",
    plugins: [
      ...(cold ? [coldModules(sourceDir, cold) as Plugin] : []),
      {
        name: "lazy",
        setup(esbuild) {
          esbuild.onLoad({ filter: /\.ts$/ }, async (args) => ({
            contents: lazyRequires(
              sourceDir,
              args.path,
              await readFile(args.path, "utf8"),
              cold ?? new Set(),
            ),
            loader: "ts",
          }));
        },
      },
    ],
  });
  return readdir(path.join(tmp, "out"));
}

describe("a module made a lazy require, bundled", () => {
  it("stays in its importer's file and runs only when reached, once; a failure is a rejection", async () => {
    const out = await bundleFixture(
      {
        "entry.ts": `export const ran: string[] = (globalThis as { ran?: string[] }).ran = [];
export async function load() {
  const first = await import("./lazy.js");
  const second = await import("./lazy.js");
  return [first.value, first.half(10), second.value, first === second || first.value === second.value];
}
export async function broken() {
  return import("./broken.js");
}
`,
        "lazy.ts": `(globalThis as { ran?: string[] }).ran?.push("lazy");
export const value = 42;
export function half(n: number) { return n / 2; }
`,
        "broken.ts": `(globalThis as { ran?: string[] }).ran?.push("broken");
throw new Error("broken at its evaluation");
export const never = 1;
`,
      },
      "entry.ts",
    );
    // No chunk of its own: one file.
    expect(out).toEqual(["main.js"]);
    const main = await import(pathToFileURL(path.join(tmp, "out", "main.js")).href);
    expect(main.ran).toEqual([]);
    expect(await main.load()).toEqual([42, 5, 42, true]);
    expect(main.ran).toEqual(["lazy"]);
    await expect(main.broken()).rejects.toThrow("broken at its evaluation");
    // Asked again, it fails again (as a failed ES module does), without running again.
    await expect(main.broken()).rejects.toThrow("broken at its evaluation");
    expect(main.ran).toEqual(["lazy", "broken"]);
  });
});

describe("the modules no acai -p reaches, bundled behind the cold entry", () => {
  const files = {
    "entry.ts": `import { counter } from "./shared.js";
export const ran: string[] = (globalThis as { ran?: string[] }).ran = [];
export async function load() {
  const first = await import("./cold.js");
  const second = await import("./also-cold.js");
  const again = await import("./cold.js");
  return { value: first.value, bumped: first.bump(), seen: counter.count, second: second.twice(4), same: first.bump === again.bump };
}
export async function broken() {
  return import("./broken.js");
}
export function localCount() { return counter.count; }
`,
    "shared.ts": `export const counter = { count: 0 };
`,
    "cold.ts": `import { counter } from "./shared.js";
(globalThis as { ran?: string[] }).ran?.push("cold");
export const value = 7;
export function bump() { counter.count += 1; return counter.count; }
`,
    "also-cold.ts": `(globalThis as { ran?: string[] }).ran?.push("also-cold");
export function twice(n: number) { return 2 * n; }
`,
    "broken.ts": `(globalThis as { ran?: string[] }).ran?.push("broken");
throw new Error("cold and broken");
export const never = 1;
`,
  };
  const cold = new Set(["cold.ts", "also-cold.ts", "broken.ts"]);

  it("lie in a file of their own that the entry does not import, and share the entry's modules", async () => {
    const out = await bundleFixture(files, "entry.ts", cold);
    const texts = new Map<string, string>();
    for (const name of out) texts.set(name, await readFile(path.join(tmp, "out", name), "utf8"));
    const main = texts.get("main.js") ?? "";
    const coldFile = [...texts].find(([, text]) => text.includes("// source/cold.ts"))?.[0];
    expect(coldFile).toBeDefined();
    expect(coldFile).not.toBe("main.js");
    // All three in that one file; the shared module in one place, not copied into it.
    expect(texts.get(coldFile ?? "")).toContain("// source/also-cold.ts");
    expect(texts.get(coldFile ?? "")).toContain("// source/broken.ts");
    expect([...texts.values()].filter((text) => text.includes("// source/shared.ts"))).toHaveLength(
      1,
    );
    // The entry reaches it only by import(): no static import of it.
    expect(main).not.toMatch(new RegExp(`from "\\./${coldFile}"|import "\\./${coldFile}"`));
    expect(main).toContain(`import("./${coldFile}")`);
  });

  it("run only when reached, once, with the entry's own instance of what they share; a failure is a rejection each time", async () => {
    await bundleFixture(files, "entry.ts", cold);
    const main = await import(pathToFileURL(path.join(tmp, "out", "main.js")).href);
    expect(main.ran).toEqual([]);
    expect(await main.load()).toEqual({ value: 7, bumped: 1, seen: 1, second: 8, same: true });
    expect(main.localCount()).toBe(1);
    expect(main.ran).toEqual(["cold", "also-cold"]);
    await expect(main.broken()).rejects.toThrow("cold and broken");
    await expect(main.broken()).rejects.toThrow("cold and broken");
    expect(main.ran).toEqual(["cold", "also-cold", "broken"]);
  });
});

describe("the build's check of packages left to Node", () => {
  it("names each external a training start loaded, and none it did not", () => {
    const loaded = new Set([
      "/repo/node_modules/web-tree-sitter/web-tree-sitter.js",
      "/repo/node_modules/yaml/dist/index.js",
    ]);
    expect(externalsLoaded(["web-tree-sitter", "react-devtools-core"], loaded)).toEqual([
      "web-tree-sitter",
    ]);
    expect(externalsLoaded(["web-tree-sitter"], new Set(["/repo/dist/bundle/main.js"]))).toEqual(
      [],
    );
  });
});
