// Makes the chunk-level functions an `acai -p` start uses compile eagerly, so
// that Node's compile cache holds their bytecode (decision 0057).
//
// Node's compile cache (module.enableCompileCache, turned on by cli/main.ts)
// stores what V8 compiled when a module was compiled — its top level and the
// functions V8 compiled eagerly — not what ran later: every function a run
// calls is otherwise parsed and compiled again on every start (for `acai -p`,
// ~1,600 of the bundle's functions before the first model request). V8
// compiles a function eagerly when it is a parenthesized function expression
// (its "PIFE" heuristic). So after esbuild, for the functions the build's
// training start used (bundle-training.mjs; making every function eager put
// ~3,400 unused ones in the cache, to be read on every start):
//
// - a chunk-level `function f(…) {…}` becomes `var f = (function (…) {…});`
//   placed before the chunk's first statement, where the declaration's hoisting
//   made it available (anonymous, so `f` inside it is still the chunk's binding
//   and the name is still "f");
// - a chunk-level `var/let/const f = <arrow or function expression>` gets the
//   parentheses.
//
// - a module body esbuild wrapped to run at its first require
//   (`var init_x = __esm({ "source/x.ts"() {…} })`, or `__commonJS`) becomes
//   `"source/x.ts": (function () {…})` (decision 0062);
// - a function expression or arrow nested anywhere (a callback, zod's
//   classes' closures, a module body's functions) gets parentheses, and V8
//   compiles it with the function around it (decision 0080).
//
// A hoisted declaration is callable before its chunk runs; the `var` only once
// the chunk starts. No other chunk can call it earlier unless the chunks import
// each other in a cycle, so a chunk in a static import cycle is left as it is.
// Class and object methods, getters and nested `function` declarations stay
// lazy: V8 has no such form for them.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The chunk's source parsed as an ES module; throws on a syntax error. */
export function parseChunk(name, text) {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const problems = file.parseDiagnostics ?? [];
  if (problems.length > 0) {
    const first = problems[0];
    throw new Error(`${name}: cannot parse (${ts.flattenDiagnosticMessageText(first.messageText, "\n")})`);
  }
  return file;
}

const hasModifier = (node, kind) => (node.modifiers ?? []).some((m) => m.kind === kind);

/** A chunk-level function declaration this can move: named, not exported, with a body. */
function movable(statement) {
  return (
    ts.isFunctionDeclaration(statement) &&
    statement.name !== undefined &&
    statement.body !== undefined &&
    !hasModifier(statement, ts.SyntaxKind.ExportKeyword)
  );
}

/**
 * Whether V8 logged the function as used: it names a function by a start position
 * (the parameters' parenthesis; the first token for an arrow without one).
 */
function isUsed(file, text, fn, used) {
  if (used === undefined) return true;
  const start = fn.getStart(file);
  const paren = text.indexOf("(", fn.name ? fn.name.end : start);
  return used.has(start) || used.has(paren) || (fn.name !== undefined && used.has(fn.name.end));
}

/**
 * `function f(…) {…}` as `var f = (function (…) {…});` (async and generators kept),
 * with the `inner` edits that fall inside it (its nested functions made eager).
 */
function asExpression(file, text, statement, inner = []) {
  const start = statement.getStart(file);
  const name = statement.name;
  const head = text.slice(start, name.getStart(file)).trimEnd();
  const within = inner
    .filter((edit) => edit.at >= name.end && edit.end <= statement.end)
    .map((edit) => ({ ...edit, at: edit.at - name.end, end: edit.end - name.end }));
  const rest = applyEdits(text.slice(name.end, statement.end), within);
  return `var ${name.text} = (${head} ${rest.trimStart()});`;
}

/**
 * The edits that parenthesize the used function expressions and arrows nested
 * anywhere in the chunk (not those in `handled`, nor one already in parentheses):
 * V8 then compiles each with the function around it, so a nested function a start
 * runs is in the compile cache with its parent (decision 0080). Methods, getters
 * and nested `function` declarations have no such form and stay lazy.
 */
function nestedEdits(file, text, used, handled) {
  const edits = [];
  const visit = (node) => {
    const isFunction = ts.isArrowFunction(node) || ts.isFunctionExpression(node);
    if (
      isFunction &&
      !handled.has(node) &&
      !ts.isParenthesizedExpression(node.parent) &&
      isUsed(file, text, node, used)
    ) {
      const at = node.getStart(file);
      edits.push({ at, end: at, insert: "(" }, { at: node.end, end: node.end, insert: ")" });
    }
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(file, visit);
  return edits;
}

/** The function-valued initializers of chunk-level variable statements, not yet parenthesized. */
function functionInitializers(statements) {
  const found = [];
  for (const statement of statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) found.push(init);
    }
  }
  return found;
}

/** esbuild's wrappers of a module's body, run at its first use (decision 0062). */
const WRAPPERS = new Set(["__esm", "__commonJS"]);

/**
 * The module bodies esbuild wrapped, `var init_x = __esm({ "source/x.ts"() {…} })`
 * (or `__commonJS`, with `(exports, module)`): the one method of the wrapper's object.
 */
function wrappedBodies(file, statements) {
  const found = [];
  for (const statement of statements) {
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const call = declaration.initializer;
      if (!call || !ts.isCallExpression(call) || call.arguments.length !== 1) continue;
      if (!ts.isIdentifier(call.expression) || !WRAPPERS.has(call.expression.text)) continue;
      const [object] = call.arguments;
      if (!ts.isObjectLiteralExpression(object) || object.properties.length !== 1) continue;
      const [method] = object.properties;
      if (ts.isMethodDeclaration(method) && method.body && !method.asteriskToken) found.push(method);
    }
  }
  return found;
}

/** The edits that make a wrapped module body `"key": (function (…) {…})` (async kept). */
function bodyAsExpression(file, method) {
  const isAsync = hasModifier(method, ts.SyntaxKind.AsyncKeyword);
  const key = method.name.getText(file);
  const head = `${key}: (${isAsync ? "async " : ""}function `;
  const params = method.getChildren(file).find((c) => c.kind === ts.SyntaxKind.OpenParenToken);
  return [
    { at: method.getStart(file), end: params.getStart(file), insert: head },
    { at: method.end, end: method.end, insert: ")" },
  ];
}

/** esbuild's `// source/…` (or `// node_modules/…`) line before each module's part of a chunk. */
const MODULE_MARK = /^\/\/ (?:source|node_modules)\/\S+$/gm;

/** The module mark in effect at `position` (the last one before it), or undefined. */
function markAt(marks, position) {
  let found;
  for (const mark of marks) if (mark.index < position) found = mark[0];
  return found;
}

/**
 * The moved functions as one block, each under its module's mark, and the mark in
 * effect where the block goes after it: so each line still lies under its module's mark.
 */
function hoistedBlock(file, text, moved, at, inner) {
  const marks = [...text.matchAll(MODULE_MARK)];
  const lines = [];
  let current;
  for (const statement of moved) {
    const mark = markAt(marks, statement.getStart(file));
    if (mark !== undefined && mark !== current) lines.push(mark);
    current = mark;
    lines.push(asExpression(file, text, statement, inner));
  }
  const after = markAt(marks, at);
  if (after !== undefined && after !== current) lines.push(after);
  return `\n${lines.join("\n")}\n`;
}

/**
 * The chunk with its chunk-level functions made eager (see the top of this file):
 * those whose start positions are in `used` (V8's, from the training run), or all.
 */
export function eagerChunk(name, text, used) {
  return eagerOf(parseChunk(name, text), text, used);
}

/** eagerChunk over a chunk already parsed. */
function eagerOf(file, text, used) {
  const statements = file.statements;
  const first = statements.find((s) => !ts.isImportDeclaration(s));
  if (first === undefined) return text;
  const moved = statements.filter((s) => movable(s) && isUsed(file, text, s, used));
  const initializers = functionInitializers(statements);
  const inner = used === undefined ? [] : nestedEdits(file, text, used, new Set(initializers));
  const inMoved = (edit) => moved.some((s) => edit.at >= s.getStart(file) && edit.end <= s.end);
  const edits = inner.filter((edit) => !inMoved(edit));
  if (moved.length > 0) {
    // Before the first statement's comments (its module's mark among them).
    const at = first.pos;
    edits.push({ at, end: at, insert: hoistedBlock(file, text, moved, at, inner) });
    for (const s of moved) edits.push({ at: s.getStart(file), end: s.end, insert: "" });
  }
  for (const init of initializers.filter((f) => isUsed(file, text, f, used))) {
    edits.push({ at: init.getStart(file), end: init.getStart(file), insert: "(" });
    edits.push({ at: init.end, end: init.end, insert: ")" });
  }
  for (const method of wrappedBodies(file, statements).filter((m) => isUsed(file, text, m, used))) {
    edits.push(...bodyAsExpression(file, method));
  }
  return applyEdits(text, edits);
}

/** `text` with non-overlapping edits applied (ordered by position; an insertion before a removal there). */
function applyEdits(text, edits) {
  const sorted = edits
    .map((edit, order) => ({ ...edit, order }))
    .sort((a, b) => a.at - b.at || a.end - a.at - (b.end - b.at) || a.order - b.order);
  let out = "";
  let position = 0;
  for (const edit of sorted) {
    out += text.slice(position, edit.at) + edit.insert;
    position = edit.end;
  }
  return out + text.slice(position);
}

/** The relative modules a chunk imports or re-exports statically ("./chunk-X.js" → "chunk-X.js"). */
export function staticImports(name, text) {
  return importsOf(parseChunk(name, text));
}

/** staticImports over a chunk already parsed. */
function importsOf(file) {
  const found = [];
  for (const statement of file.statements) {
    const from = statement.moduleSpecifier;
    if ((ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) && from) {
      if (ts.isStringLiteral(from) && from.text.startsWith("./")) found.push(from.text.slice(2));
    }
  }
  return found;
}

/** The names of the chunks that are part of a static import cycle (Tarjan's strongly connected components). */
export function chunksInCycles(imports) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const inCycle = new Set();
  const visit = (chunk) => {
    index.set(chunk, index.size);
    low.set(chunk, index.get(chunk));
    stack.push(chunk);
    onStack.add(chunk);
    for (const next of imports.get(chunk) ?? []) {
      if (!imports.has(next)) continue;
      if (!index.has(next)) visit(next);
      if (onStack.has(next)) low.set(chunk, Math.min(low.get(chunk), low.get(next)));
    }
    if (low.get(chunk) !== index.get(chunk)) return;
    const component = [];
    for (let top = stack.pop(); ; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === chunk) break;
    }
    const selfImport = (imports.get(chunk) ?? []).includes(chunk);
    if (component.length > 1 || selfImport) for (const c of component) inCycle.add(c);
  };
  for (const chunk of imports.keys()) if (!index.has(chunk)) visit(chunk);
  return inCycle;
}

/**
 * The bundle folder's chunks, each read and parsed once (for its imports and its
 * rewriting, by this pass and bundle-builtins.mjs), and those in a static import cycle.
 */
export function parsedChunks(dir) {
  const chunks = new Map();
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
    const text = readFileSync(path.join(dir, name), "utf8");
    chunks.set(name, { text, file: parseChunk(name, text) });
  }
  const imports = new Map([...chunks].map(([name, { file }]) => [name, importsOf(file)]));
  return { chunks, inCycles: chunksInCycles(imports) };
}

/**
 * Rewrites the bundle folder's chunks in place, making eager the functions `used`
 * names (bundle-training.mjs: file → V8 start positions); returns what it did.
 */
export function eagerBundle(dir, used) {
  const { chunks, inCycles: skipped } = parsedChunks(dir);
  let rewritten = 0;
  for (const [name, { text, file }] of chunks) {
    const positions = used.get(name);
    if (skipped.has(name) || positions === undefined) continue;
    const eager = eagerOf(file, text, positions);
    if (eager === text) continue;
    writeFileSync(path.join(dir, name), eager);
    rewritten += 1;
  }
  return { files: chunks.size, rewritten, inCycles: [...skipped].sort() };
}
