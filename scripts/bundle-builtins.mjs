// Node's built-in modules taken without their ES module facades (decision 0079).
//
// A static `import … from "node:fs"` makes Node build the module's ES facade,
// which reads every export once: reading `fs.promises`, `fs.ReadStream`,
// `util.TextDecoder` and the like loads the internal modules behind those lazy
// getters, whether acai uses them or not. Measured on Node 24, each in a fresh
// process: `import("node:fs")` 3.0 ms against 0.05 ms for `require("node:fs")`,
// `node:util` 2.9–3.4 ms against 0.04.
//
// After esbuild, each top-level import declaration of a built-in (written
// `node:x` or bare, by acai or by a bundled package) becomes a `const` taken
// from `process.getBuiltinModule` (Node ≥ 22.3; acai needs 22.13), placed at
// the top of its chunk as the import's binding was (hoisted):
//
//   import x,{a as b,c}from"node:y";  →  const x=…("node:y"),{a:b,c}=x;
//
// so only the exports acai reads are read. The binding is the module itself
// (what the import's default is); a named import is the export's value when
// the chunk starts, as the facade's was. A chunk in a static import cycle is
// left as it is (another chunk of the cycle could call into it before it
// starts, where an import is already bound and a `const` not yet). The build
// stops on a form this pass does not rewrite: a re-export of a built-in, or a
// namespace import whose `.default` the chunk reads (the module itself has
// none). Dynamic `import()`s of built-ins are left alone. The tsc build keeps
// the plain imports.
import { writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import ts from "typescript";
import { parseChunk, parsedChunks } from "./bundle-eager.mjs";

/** The built-ins a bare name reaches (`fs`, `fs/promises`); the prefix-only ones (`node:sqlite`) are not. */
const BARE = new Set(builtinModules.filter((name) => !name.startsWith("node:")));

/** The built-in a module specifier names, as `node:x`; undefined for anything else. */
export function builtinOf(specifier) {
  if (specifier.startsWith("node:")) return specifier;
  return BARE.has(specifier) ? `node:${specifier}` : undefined;
}

/** Whether the chunk reads `name.default` (`name` an identifier, `$` allowed). */
function readsDefault(text, name) {
  const escaped = name.replace(/\$/g, "\\$");
  return new RegExp(`(?<![\\w$])${escaped}\\.default(?![\\w$])`).test(text);
}

/** `const` declarators for one import clause of `id`; undefined for a form not handled. */
function declarators(clause, id, text) {
  const source = `globalThis.process.getBuiltinModule(${JSON.stringify(id)})`;
  if (clause === undefined) return { declarations: [], sideEffect: `${source};` };
  const parts = [];
  let whole = clause.name?.text;
  const bindings = clause.namedBindings;
  if (bindings && ts.isNamespaceImport(bindings)) {
    // `import*as x` with `x.default` read: the namespace's default, which the module itself lacks.
    if (readsDefault(text, bindings.name.text)) return undefined;
    if (whole !== undefined) parts.push(`${bindings.name.text}=${whole}`);
    else whole = bindings.name.text;
  }
  const named = [];
  if (bindings && ts.isNamedImports(bindings)) {
    for (const element of bindings.elements) {
      const imported = (element.propertyName ?? element.name).text;
      if (imported === "default") {
        if (whole === undefined) whole = element.name.text;
        else parts.push(`${element.name.text}=${whole}`);
      } else named.push(imported === element.name.text ? imported : `${imported}:${element.name.text}`);
    }
  }
  const head = whole === undefined ? [] : [`${whole}=${source}`];
  if (named.length > 0) head.push(`{${named.join(",")}}=${whole ?? source}`);
  return { declarations: [...head, ...parts], sideEffect: "" };
}

/**
 * One chunk with its built-in imports rewritten; `{ text, problems }`. A problem
 * names an import or re-export of a built-in this pass leaves as it is.
 */
export function chunkWithoutFacades(name, text) {
  return rewritten(name, text, parseChunk(name, text));
}

/** chunkWithoutFacades over a chunk already parsed. */
function rewritten(name, text, file) {
  const edits = [];
  const declarations = [];
  const problems = [];
  for (const statement of file.statements) {
    const from = statement.moduleSpecifier;
    if (from === undefined || !ts.isStringLiteral(from)) continue;
    const id = builtinOf(from.text);
    if (id === undefined) continue;
    const made = ts.isImportDeclaration(statement)
      ? declarators(statement.importClause, id, text)
      : undefined;
    if (made === undefined) {
      problems.push(`${name}: ${statement.getText(file)}`);
      continue;
    }
    declarations.push(...made.declarations);
    edits.push({ start: statement.getStart(file), end: statement.end, with: made.sideEffect });
  }
  if (edits.length === 0) return { text, problems };
  let out = text;
  for (const edit of edits.reverse()) out = out.slice(0, edit.start) + edit.with + out.slice(edit.end);
  const shebang = /^#!.*\n/.exec(out)?.[0] ?? "";
  const top = declarations.length > 0 ? `const ${declarations.join(",")};` : "";
  return { text: shebang + top + out.slice(shebang.length), problems };
}

/** Rewrites every chunk of `dir` in place; returns what it did and what it left. */
export function bundleWithoutFacades(dir) {
  const { chunks, inCycles } = parsedChunks(dir);
  const problems = [];
  let changed = 0;
  for (const [n, { text, file }] of chunks) {
    if (inCycles.has(n)) continue;
    const done = rewritten(n, text, file);
    problems.push(...done.problems);
    if (done.text === text) continue;
    writeFileSync(path.join(dir, n), done.text);
    changed += 1;
  }
  return { files: chunks.size, rewritten: changed, inCycles: [...inCycles].sort(), problems };
}
