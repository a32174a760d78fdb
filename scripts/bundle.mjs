#!/usr/bin/env node
// Bundles what the `acai` command runs into dist/bundle/ (run after tsc, by
// `npm run build`; decision 0035): esbuild, ES modules with code splitting,
// one entry per thing Node starts on its own —
//   main.js     the CLI (bin/start.cjs imports it); the REPL's UI, the hooks
//               subcommands and every other `import()` stay chunks of their own,
//               loaded only when reached
//   worker.js   a plugin's worker thread (hooks/run/plugins/thread.ts starts it)
//   bridge.js   the sandbox's network bridge (node bridge.js … inside bwrap)
//   hooks.js    `acai-agent/hooks`, the helper hook processes import
// The tsc output beside it (dist/<folder>/…) stays: the SDK's types, the schema
// generator and the tests' imports of single modules use it.
//
// A module that finds a file through `new URL("…", import.meta.url)` (the Bash
// grammar, the package.json, the demo replay file, the SDK for `hooks init`,
// the worker, the bridge) would look beside its chunk instead of beside its tsc
// output: such a URL is rewritten here to where it pointed in the tsc build —
// or, for an entry above, to the bundled entry.
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(root, "source");
const distDir = path.join(root, "dist");
const outDir = path.join(distDir, "bundle");

/** Bundle entry name → its module in source/. */
const ENTRIES = {
  main: "cli/main.ts",
  worker: "hooks/run/plugins/worker.ts",
  bridge: "sandbox/bridge.ts",
  hooks: "sdk/hooks.ts",
};

/** An entry's tsc output (dist/…/x.js) → the bundled file that replaces it. */
const BUNDLED = new Map(
  Object.entries(ENTRIES).map(([name, file]) => [
    path.join(distDir, file.replace(/\.ts$/, ".js")),
    path.join(outDir, `${name}.js`),
  ]),
);

/** Not bundled: web-tree-sitter loads its own WASM beside its module; devtools is optional to ink. */
const EXTERNAL = ["web-tree-sitter", "react-devtools-core"];

const URL_OF_FILE = /new URL\((["'])([^"'`]+)\1, import\.meta\.url\)/g;

/** `new URL("rel", import.meta.url)` of a source module, pointed from dist/bundle/ at the same file. */
function rewriteUrls(file, text) {
  const compiled = path.join(distDir, path.relative(sourceDir, path.dirname(file)));
  return text.replace(URL_OF_FILE, (_whole, quote, relative) => {
    const target = path.resolve(compiled, relative);
    const landed = BUNDLED.get(target) ?? target;
    const fromBundle = path.relative(outDir, landed).split(path.sep).join("/");
    const spelled = fromBundle.startsWith(".") ? fromBundle : `./${fromBundle}`;
    return `new URL(${quote}${spelled}${quote}, import.meta.url)`;
  });
}

const tsModuleUrls = {
  name: "acai-module-urls",
  setup(esbuild) {
    esbuild.onLoad({ filter: /[\\/]source[\\/].*\.tsx?$/ }, async (args) => {
      const text = await readFile(args.path, "utf8");
      const loader = args.path.endsWith(".tsx") ? "tsx" : "ts";
      if (!text.includes("import.meta.url")) return { contents: text, loader };
      return { contents: rewriteUrls(args.path, text), loader };
    });
  },
};

await rm(outDir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(
    Object.entries(ENTRIES).map(([name, file]) => [name, path.join(sourceDir, file)]),
  ),
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
  // CommonJS dependencies (react, …) call require(): give every chunk one.
  banner: {
    js: 'import { createRequire as __acaiCreateRequire } from "node:module"; const require = __acaiCreateRequire(import.meta.url);',
  },
  plugins: [tsModuleUrls],
  logLevel: "warning",
});
