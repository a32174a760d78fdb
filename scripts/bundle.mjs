#!/usr/bin/env node
// Bundles what the `acai` command runs into dist/bundle/ (run after tsc, by
// `npm run build`; decision 0035): esbuild, ES modules with code splitting.
// Entries: `main.js` (the CLI; bin/start.cjs imports it; the REPL's UI, the
// hooks subcommands and every other `import()` stay chunks of their own,
// loaded only when reached) and every source module that some module finds
// through `new URL("…", import.meta.url)` — the plugin worker and what it
// imports at run time, the sandbox's bridge, the SDK (`acai-agent/hooks`) —
// found by reading the source (scripts/bundle-urls.mjs), each named by its source
// path (dist/bundle/hooks-run-plugins-worker.js, …) beside the chunks, so every
// bundled module, entry or chunk, lies in the one folder.
// Before esbuild reads a source module, its literal `import("./…")`s of source modules
// become lazy requires (scripts/bundle-lazy.mjs, decision 0062): the module stays in
// its importer's chunk, run at its first use, so `acai -p` loads a few chunks, not ~100;
// the REPL, its UI and the Bash parser stay chunks of their own, and the modules no
// `acai -p` reaches (the subcommands, telemetry, MCP, the relay) lie behind one entry
// of their own, `acai:cold` (coldModules), so a start does not read them.
// The REPL's UI packages measure text with acai's string-width and carry only React's
// production build (scripts/bundle-ui.mjs, decision 0073). `ai`'s import of its AI Gateway
// provider, which acai never uses, gets a small stand-in (scripts/bundle-gateway.mjs, decision 0077).
// After esbuild, each file loses its comments and layout, its module marks kept
// (scripts/bundle-compact.mjs, decision 0077), and its static imports of Node's built-ins
// become `process.getBuiltinModule` calls, so no ES facade reads every lazy export of each
// (scripts/bundle-builtins.mjs, decision 0079).
// After esbuild, the characters outside ASCII its kept comments hold are replaced
// (scripts/bundle-ascii.mjs, decision 0060); then the chunk-level functions an `acai -p`
// start uses (one training run of the new bundle, scripts/bundle-training.mjs) are made to compile eagerly, so Node's
// compile cache holds them (scripts/bundle-eager.mjs, decision 0057), and so are the module bodies
// esbuild wrapped that it ran (0062); the build stops if that start loaded a package left to Node.
// The tsc output beside it (dist/<folder>/…) stays: the SDK's types, the schema
// generator and the tests' imports of single modules use it.
//
// Such a URL would look beside its chunk instead of beside its module: it is
// rewritten here to the bundled entry, or, for any other file (the Bash
// grammar, package.json, the demo replay file), to where it lies in the tsc build.
// A module-relative URL that is not a literal stops the build.
import { readFileSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { asciiBundle } from "./bundle-ascii.mjs";
import { bundleWithoutFacades } from "./bundle-builtins.mjs";
import { compactBundle } from "./bundle-compact.mjs";
import { eagerBundle } from "./bundle-eager.mjs";
import { noGateway } from "./bundle-gateway.mjs";
import { sdkHeaders } from "./bundle-headers.mjs";
import { coldModules, externalsLoaded, lazyRequires } from "./bundle-lazy.mjs";
import { trainingRun } from "./bundle-training.mjs";
import { uiPlugins } from "./bundle-ui.mjs";
import { scanSource } from "./bundle-urls.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(root, "source");
const distDir = path.join(root, "dist");
const outDir = path.join(distDir, "bundle");

const scanned = scanSource(sourceDir);
if (scanned.problems.length > 0) {
  console.error(`bundle: ${scanned.problems.join("\nbundle: ")}`);
  process.exit(1);
}

/** Bundle entry name → its module in source/. */
const ENTRIES = { main: path.join(sourceDir, "cli", "main.ts"), ...scanned.entries };

/** A source module's tsc output (dist/…/x.js) → the bundled entry that replaces it. */
const BUNDLED = new Map(
  Object.entries(ENTRIES).map(([name, file]) => [
    path.join(distDir, path.relative(sourceDir, file)).replace(/\.tsx?$/, ".js"),
    path.join(outDir, `${name}.js`),
  ]),
);

/** Not bundled: web-tree-sitter loads its own WASM beside its module; devtools is optional to ink. */
const EXTERNAL = ["web-tree-sitter", "react-devtools-core"];

const URL_OF_FILE = /new URL\((["'])([^"'`]+)\1, import\.meta\.url\)/g;

/** `new URL("rel", import.meta.url)` of a source module, pointed from dist/bundle/ at the same target. */
function rewriteUrls(file, text) {
  const compiled = path.join(distDir, path.relative(sourceDir, path.dirname(file)));
  return text.replace(URL_OF_FILE, (_whole, quote, relative) => {
    const target = path.resolve(compiled, relative).replace(/\.tsx?$/, ".js");
    const isModule = /\.[jt]sx?$/.test(relative);
    const landed = BUNDLED.get(target) ?? (isModule ? target : path.resolve(compiled, relative));
    const fromBundle = path.relative(outDir, landed).split(path.sep).join("/");
    const spelled = fromBundle.startsWith(".") ? fromBundle : `./${fromBundle}`;
    return `new URL(${quote}${spelled}${quote}, import.meta.url)`;
  });
}

/** The package.json nearest above a file. */
function packageOf(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      return JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    } catch {
      // not here
    }
  }
  return {};
}

/** Whether Node would load a resolved file as CommonJS. */
function isCommonJs(file) {
  if (file.endsWith(".cjs")) return true;
  if (file.endsWith(".mjs")) return false;
  return packageOf(file).type !== "module";
}

/**
 * `import("a-package")` of a CommonJS package (yaml, the NATS client, picomatch)
 * is left to Node: in a split bundle esbuild gives such an import only a default
 * export, where Node's loader also gives module.exports' names. These packages are
 * loaded lazily anyway, and are dependencies the installed package carries.
 */
const lazyCommonJs = {
  name: "acai-lazy-commonjs",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== "dynamic-import" || args.path.startsWith("node:")) return undefined;
      if (args.pluginData === "acai-lazy-commonjs") return undefined;
      const resolved = await esbuild.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: "acai-lazy-commonjs",
      });
      if (resolved.errors.length > 0 || resolved.external || resolved.namespace !== "file") {
        return undefined;
      }
      return isCommonJs(resolved.path) ? { path: args.path, external: true } : undefined;
    });
  },
};

const tsModuleUrls = {
  name: "acai-module-urls",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]source[\\/].*\.tsx?$/ }, async (args) => {
      const text = lazyRequires(sourceDir, args.path, await readFile(args.path, "utf8"));
      const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
      if (!text.includes("import.meta.url")) return { contents: text, loader };
      return { contents: rewriteUrls(args.path, text), loader };
    });
  },
};

await rm(outDir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  outdir: outDir,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node22.13",
  jsx: "automatic",
  tsconfig: path.join(root, "tsconfig.json"),
  external: EXTERNAL,
  chunkNames: "chunk-[hash]",
  // CommonJS dependencies (react, …) call require(): give every chunk one, made at its first
  // call — createRequire costs ~25 µs, and of the ~100 chunks `acai -p` loads only esbuild's
  // runtime chunk calls it (decision 0054).
  banner: {
    js: 'let __acaiRequire; function require(id) { __acaiRequire ??= process.getBuiltinModule("node:module").createRequire(import.meta.url); return __acaiRequire(id); }',
  },
  plugins: [
    ...uiPlugins(sourceDir),
    tsModuleUrls,
    lazyCommonJs,
    coldModules(sourceDir),
    sdkHeaders(sourceDir),
    noGateway(),
  ],
  logLevel: "warning",
});

// Fewer bytes to read at each start: no comments or layout, names kept (decision 0077).
compactBundle(outDir);
// Built-ins taken from process.getBuiltinModule, not imported: no ES facade reads every lazy export (decision 0079).
const builtins = bundleWithoutFacades(outDir);
if (builtins.problems.length > 0) {
  console.error(`bundle: a built-in imported in a form scripts/bundle-builtins.mjs does not rewrite:\n  ${builtins.problems.join("\n  ")}`);
  process.exit(1);
}
if (builtins.inCycles.length > 0) {
  console.warn(`bundle: built-in imports left (in a static import cycle): ${builtins.inCycles.join(", ")}`);
}
// Comments outside ASCII would make V8 keep a whole chunk as two-byte text (decision 0060).
asciiBundle(outDir);
const training = await trainingRun(outDir);
const early = externalsLoaded(EXTERNAL, training.loaded);
if (early.length > 0) {
  console.error(
    `bundle: \`acai -p\` loads ${early.join(", ")} at start; keep the dynamic import that reaches it (scripts/bundle-lazy.mjs SEPARATE)`,
  );
  process.exit(1);
}
const eager = eagerBundle(outDir, training.used);
if (eager.inCycles.length > 0) {
  console.warn(`bundle: left lazy (in a static import cycle): ${eager.inCycles.join(", ")}`);
}
