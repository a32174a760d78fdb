// Which of the source's `import("./…")` become lazy requires in the bundle (decision 0062).
//
// In a split bundle every `import()` target is an entry of its own, and esbuild
// cuts the code into one chunk per set of entries that reach it: with ~50 such
// entries, `acai -p` loaded ~100 chunks, each one more module for Node's ES
// module loader to resolve, read, check against the compile cache and link. A
// `require("./x.js")` of a source module instead keeps x in its importer's
// chunk, wrapped by esbuild to run at the first require (`init_x = __esm(…)`),
// as an `import()` would have run it: so each literal `import("./x.js")` of a
// source module becomes `Promise.resolve().then(() => require("./x.js"))` —
// still asynchronous, still evaluated only when reached, a failure still a
// rejected promise. Not rewritten (SEPARATE, KEPT_IMPORTERS):
//
// - the CLI's first module (cli/main.ts): Node compiles it before it turns the
//   compile cache on, so it imports only Node's built-ins and its next modules;
// - the REPL (repl/start.ts) and, inside it, the stages it loads later on
//   purpose (repl/load-ui.ts: the UI — ink, React — evaluated under its own
//   conditions; the Markdown renderer): `acai -p` never loads their chunks;
// - a module whose chunk would import a package left to Node (esbuild hoists a
//   static import of an external to the top of its chunk): the Bash parser
//   (web-tree-sitter) loads at the first permission check, as before — the
//   build stops if a training start of `acai -p` loads an external
//   (externalsLoaded);
// - packages (`import("yaml")`, …) and anything not spelled as a literal.
//
// A module with a top-level await cannot be required: esbuild then stops the build.
import path from "node:path";
import ts from "typescript";

/** The source modules (relative to source/) that stay where `import()` loads them. */
const SEPARATE = new Set([
  "repl/start.ts",
  "repl/mount.ts",
  "repl/markdown/render.ts",
  "permissions/shell/parser.ts",
]);

/** The files whose dynamic imports all stay as they are. */
const KEPT_IMPORTERS = new Set(["cli/main.ts"]);

/** The source module a relative literal names, relative to `sourceDir` ("x.js" → "x.ts"). */
function targetOf(sourceDir, file, literal) {
  const target = path.relative(sourceDir, path.resolve(path.dirname(file), literal));
  return target.split(path.sep).join("/").replace(/\.jsx?$/, ".ts");
}

/** The `import("./…")` calls (a relative literal, not a type's `import(…)`) in a parsed file. */
function relativeImports(file) {
  const found = [];
  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [first] = node.arguments;
      if (node.arguments.length === 1 && ts.isStringLiteral(first) && /^\.\.?\//.test(first.text)) {
        found.push({ start: node.getStart(file), end: node.end, literal: first.text });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** `text` (the source of `file`) with its dynamic imports of source modules made lazy requires. */
export function lazyRequires(sourceDir, file, text) {
  const importer = path.relative(sourceDir, file).split(path.sep).join("/");
  if (KEPT_IMPORTERS.has(importer) || !text.includes("import(")) return text;
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const parsed = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  let out = "";
  let position = 0;
  for (const { start, end, literal } of relativeImports(parsed)) {
    const target = targetOf(sourceDir, file, literal);
    if (SEPARATE.has(target) || SEPARATE.has(`${target}x`)) continue;
    out += `${text.slice(position, start)}Promise.resolve().then(() => require(${JSON.stringify(literal)}))`;
    position = end;
  }
  return out + text.slice(position);
}

/**
 * The packages left to Node (`external`) that a training start of `acai -p` loaded
 * (`loaded`: files, bundle-training.mjs): esbuild hoists a static import of an external
 * to the top of its chunk, so a module made a lazy require would load it at start.
 */
export function externalsLoaded(external, loaded) {
  const files = [...loaded].map((file) => file.split(path.sep).join("/"));
  return external.filter((name) => files.some((file) => file.includes(`/node_modules/${name}/`)));
}
