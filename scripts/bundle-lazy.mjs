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
// - the session's modules (cli/session-entry.ts: the headless run, and what the REPL
//   loads after its first frame, decision 0073): made a lazy require, the agent's code
//   would lie in the CLI's chunk and load before the REPL could draw its prompt;
// - the REPL (repl/start.ts) and, inside it, the stages it loads later on
//   purpose (repl/load-ui.ts: the UI — ink, React — evaluated under its own
//   conditions; the Markdown renderer): `acai -p` never loads their chunks;
// - a module whose chunk would import a package left to Node (esbuild hoists a
//   static import of an external to the top of its chunk): the Bash parser
//   (web-tree-sitter) loads at the first permission check, as before — the
//   build stops if a training start of `acai -p` loads an external
//   (externalsLoaded);
// - the plugin runtime's modules in-process plugins import: entries already
//   (the worker finds them by URL), so their chunks would be imported by the run's;
// - packages (`import("yaml")`, …) and anything not spelled as a literal.
//
// The modules no `acai -p` reaches (COLD: the subcommands, telemetry, MCP, the relay)
// load through one entry of their own instead (coldModules).
//
// A module with a top-level await cannot be required: esbuild then stops the build.
import path from "node:path";
import ts from "typescript";

/** The source modules (relative to source/) that stay where `import()` loads them. */
const SEPARATE = new Set([
  "cli/session-entry.ts",
  "repl/start.ts",
  "repl/mount.ts",
  "repl/markdown/render.ts",
  "permissions/shell/parser.ts",
  "hooks/run/plugins/plugin-runtime.ts",
  "hooks/run/plugins/relay-shape.ts",
  "hooks/run/plugins/worker-a3s.ts",
]);

/**
 * The source modules an `acai -p` start never reaches (decision 0062, amended): the
 * subcommands (`acai hooks …`, `sessions`, `acp`, …), telemetry, the relay, MCP, a
 * project's environment requests. Made lazy requires, each would lie in its importer's
 * chunk, read at every start; made entries of their own, each would cut the code it shares
 * with the headless run into more chunks. So they are gathered behind one entry,
 * COLD_SPECIFIER (coldModules): one chunk of code no `-p` start reads, and the code shared
 * with the run in one or two chunks more. The plugin worker's modules are entries already
 * (found by URL), so in-process plugins import them as they are.
 */
export const COLD = new Set([
  "cli/hooks/command.ts",
  "cli/commands/tools-list.ts",
  "cli/commands/sessions.ts",
  "cli/commands/agents.ts",
  "cli/commands/send.ts",
  "cli/commands/mcp-list.ts",
  "cli/commands/doctor.ts",
  "cli/commands/acp.ts",
  "cli/commands/memory.ts",
  "telemetry/session.ts",
  "relay/nats.ts",
  "mcp/connect.ts",
  "session/env-requests.ts",
]);

/** What the rewritten imports of COLD modules name; resolved by coldModules. */
export const COLD_SPECIFIER = "acai:cold";

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

/**
 * `text` (the source of `file`) with its dynamic imports of source modules made lazy requires,
 * those of `cold` modules (relative to `sourceDir`; COLD by default) loads through coldModules.
 */
export function lazyRequires(sourceDir, file, text, cold = COLD) {
  const importer = path.relative(sourceDir, file).split(path.sep).join("/");
  if (KEPT_IMPORTERS.has(importer) || !text.includes("import(")) return text;
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const parsed = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  let out = "";
  let position = 0;
  for (const { start, end, literal } of relativeImports(parsed)) {
    const target = targetOf(sourceDir, file, literal);
    if (SEPARATE.has(target) || SEPARATE.has(`${target}x`)) continue;
    const load = cold.has(target)
      ? `import(${JSON.stringify(COLD_SPECIFIER)}).then((cold) => cold.load(${JSON.stringify(target)}))`
      : `Promise.resolve().then(() => require(${JSON.stringify(literal)}))`;
    out += text.slice(position, start) + load;
    position = end;
  }
  return out + text.slice(position);
}

/**
 * The esbuild plugin that resolves COLD_SPECIFIER to one module of `sourceDir`'s COLD
 * modules (or `cold`'s): `load(target)` requires the one named (relative to `sourceDir`),
 * so each still runs at its first load, once, a failure thrown again at each load.
 */
export function coldModules(sourceDir, cold = COLD) {
  const cases = [...cold]
    .map((target) => `    case ${JSON.stringify(target)}: return require(${JSON.stringify(`./${target}`)});`)
    .join("\n");
  const contents = `export function load(target) {\n  switch (target) {\n${cases}\n    default: throw new Error("not a cold module: " + target);\n  }\n}\n`;
  return {
    name: "acai-cold-modules",
    setup(esbuild) {
      esbuild.onResolve({ filter: /^acai:cold$/ }, () => ({ path: "cold-modules", namespace: "acai-cold" }));
      esbuild.onLoad({ filter: /.*/, namespace: "acai-cold" }, () => ({ contents, loader: "js", resolveDir: sourceDir }));
    },
  };
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
