// Every bundled file without its comments and layout (decision 0077), before
// the ASCII step and the training run.
//
// A start reads, decodes and keeps as a string every chunk it loads (~3.4 MB for
// an `acai -p` in a project with hooks); on a machine where touching fresh
// memory is slow that is a few percent of the start. esbuild prints each file
// again with `minifyWhitespace` and `minifySyntax`: names are kept (stack traces
// and `name` still read as in the source), so is every legal comment. The
// `// source/…` and `// node_modules/…` lines esbuild writes before each
// module's part of a chunk stay, each on a line of its own: the package tests
// and bundle-eager.mjs read them.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";

const MODULE_MARK = /^\/\/ ((?:source|node_modules)\/\S+)$/gm;
/** A mark as a legal comment, which esbuild keeps where it stands. */
const KEPT_MARK = /\/\/! ((?:source|node_modules)\/\S+)\n/g;

/** One file's text compacted; its module marks kept on lines of their own. */
export function compactChunk(name, text) {
  const marked = text.replace(MODULE_MARK, "//! $1");
  const { code } = transformSync(marked, {
    loader: "js",
    format: "esm",
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: "inline",
    charset: "ascii",
    sourcefile: name,
  });
  return code.replace(KEPT_MARK, (_whole, module) => `\n// ${module}\n`).replace(/^\n/, "");
}

/** Compacts every .js file in `dir` in place; returns the bytes before and after. */
export function compactBundle(dir) {
  let before = 0;
  let after = 0;
  for (const name of readdirSync(dir).filter((file) => file.endsWith(".js"))) {
    const file = path.join(dir, name);
    const text = readFileSync(file, "utf8");
    const compacted = compactChunk(name, text);
    before += Buffer.byteLength(text);
    after += Buffer.byteLength(compacted);
    writeFileSync(file, compacted);
  }
  return { before, after };
}
