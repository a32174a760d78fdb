// Makes every bundled file ASCII-only (decision 0060), before the training run.
//
// esbuild escapes every character outside ASCII in code (its default charset),
// but the comments it keeps hold theirs (an em dash in a JSDoc, a locale's
// name in zod). One character above U+00FF makes V8 keep the whole file as a
// two-byte string, and Node's compile cache then encodes that file to UTF-8
// again at every start to checksum it: ~50 M instructions of the ~1,100 M an
// `acai -p` start takes (callgrind), for ten files.
//
// Each such character is replaced by "?". The build checks that only comments
// changed: esbuild's minifier (comments dropped) must print the file the same
// before and after, else the build stops naming the file.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { transformSync } from "esbuild";

const NOT_ASCII = /[^\x00-\x7f]/;
const EVERY_NOT_ASCII = /[^\x00-\x7f]/g;

/** The file's code without its comments, as esbuild's minifier prints it. */
function codeOf(name, text) {
  return transformSync(text, {
    loader: "js",
    format: "esm",
    minifyWhitespace: true,
    legalComments: "none",
    charset: "ascii",
    sourcefile: name,
  }).code;
}

/** `text` with each character outside ASCII replaced by "?"; throws when one was not in a comment. */
export function asciiOnly(name, text) {
  if (!NOT_ASCII.test(text)) return text;
  const ascii = text.replace(EVERY_NOT_ASCII, "?");
  if (codeOf(name, text) !== codeOf(name, ascii)) {
    throw new Error(
      `${name}: a character outside ASCII is in code, not in a comment; esbuild should have escaped it (scripts/bundle-ascii.mjs)`,
    );
  }
  return ascii;
}

/** Rewrites the bundle's .js files that hold a character outside ASCII; returns their names. */
export function asciiBundle(outDir) {
  const changed = [];
  for (const name of readdirSync(outDir).filter((file) => file.endsWith(".js"))) {
    const file = path.join(outDir, name);
    const text = readFileSync(file, "utf8");
    const ascii = asciiOnly(name, text);
    if (ascii === text) continue;
    writeFileSync(file, ascii);
    changed.push(name);
  }
  return changed;
}
