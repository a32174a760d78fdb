#!/usr/bin/env node
// Fails when the modules under source/ import each other in a cycle:
//   node scripts/check-import-cycles.mjs [dir]     (default: source)
//
// Biome's noImportCycles (suspicious) runs in `npm run lint` too, but it does not follow
// dynamic `import()`, and acai loads its heavy parts that way (REPL, session, hooks
// commands): a cycle through a lazy import is still a cycle, so this check counts them.
// What is erased at compile time does not count: `import type`, `export type … from`,
// and `typeof import("…")`. `import { type A }` does count: under verbatimModuleSyntax
// it is emitted as a side-effect import.
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SOURCE_EXTENSIONS = [".ts", ".tsx", ".mts"];

/** Every TypeScript file under `dir`, as absolute paths. */
async function sourceFiles(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && SOURCE_EXTENSIONS.includes(path.extname(entry.name)))
    .filter((entry) => !entry.name.endsWith(".d.ts"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/** The runtime imports of one file: `{ specifier, dynamic }`, type-only ones left out. */
export function runtimeImports(fileName, text) {
  const kind = fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, kind);
  const found = [];
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.importClause?.isTypeOnly) {
        found.push({ specifier: node.moduleSpecifier.text, dynamic: false });
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      if (!node.isTypeOnly) found.push({ specifier: node.moduleSpecifier.text, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      found.push({ specifier: node.arguments[0].text, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** A relative specifier (`./x.js`) to the source file it names, if it is one of `known`. */
function resolveSpecifier(from, specifier, known) {
  if (!specifier.startsWith(".")) return undefined;
  const target = path.resolve(path.dirname(from), specifier);
  const stem = target.replace(/\.(m?js|jsx)$/, "");
  const candidates = [target, ...SOURCE_EXTENSIONS.map((extension) => stem + extension)];
  return candidates.find((candidate) => known.has(candidate));
}

/** The import graph: file → Map(target → dynamic?). A static edge wins over a dynamic one. */
export async function importGraph(dir) {
  const files = await sourceFiles(dir);
  const known = new Set(files);
  const graph = new Map();
  for (const file of files) {
    const edges = new Map();
    for (const { specifier, dynamic } of runtimeImports(file, await readFile(file, "utf8"))) {
      const target = resolveSpecifier(file, specifier, known);
      if (target) edges.set(target, (edges.get(target) ?? true) && dynamic);
    }
    graph.set(file, edges);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself. */
function cyclicComponents(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  // Tarjan's algorithm, iterative so a deep graph cannot overflow the call stack.
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work = [{ node: start, targets: [...graph.get(start).keys()], next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work.at(-1);
      if (frame.next < frame.targets.length) {
        const target = frame.targets[frame.next++];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, targets: [...graph.get(target).keys()], next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(target)));
        }
        continue;
      }
      work.pop();
      const parent = work.at(-1);
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || graph.get(frame.node).has(frame.node)) {
        components.push(component.sort());
      }
    }
  }
  return components;
}

/** One shortest cycle through the component's first file, as a list of files ending where it starts. */
function cycleThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node).keys()) {
      if (!members.has(target)) continue;
      if (target === start) {
        const between = [];
        for (let step = node; step !== start; step = previous.get(step)) between.unshift(step);
        return [start, ...between, start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Every cycle's component and one example path through it, files relative to `base`. */
export async function findImportCycles(dir, base = dir) {
  const graph = await importGraph(dir);
  const name = (file) => path.relative(base, file);
  return cyclicComponents(graph).map((component) => {
    const cycle = cycleThrough(graph, component);
    const steps = cycle.slice(1).map((file, at) => {
      const dynamic = graph.get(cycle[at]).get(file);
      return `${dynamic ? "⇢ import()" : "→"} ${name(file)}`;
    });
    return {
      files: component.map(name),
      length: cycle.length - 1,
      path: `${name(cycle[0])} ${steps.join(" ")}`,
    };
  });
}

const invokedDirectly = process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1]);
if (invokedDirectly) {
  const dir = path.resolve(process.argv[2] ?? "source");
  const cycles = await findImportCycles(dir, process.cwd());
  for (const cycle of cycles) {
    console.error(`import cycle (${cycle.files.length} files): ${cycle.path}`);
    if (cycle.files.length > cycle.length) {
      console.error(`  all files in it: ${cycle.files.join(", ")}`);
    }
  }
  if (cycles.length > 0) {
    console.error(
      "check-import-cycles: break each cycle (move what both sides share into a module both import; type-only imports do not count)",
    );
    process.exit(1);
  }
}
