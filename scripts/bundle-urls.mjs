// What the bundle (scripts/bundle.mjs, decision 0035) must know about the
// source's module-relative URLs, found by reading the source — no hand-kept list:
//
// - every `new URL("…", import.meta.url)` whose target is a source module (the
//   plugin worker, what the worker imports at run time, the sandbox's bridge,
//   the SDK for `hooks init`, …) makes that module an entry of the bundle, so
//   Node can start or import it on its own;
// - every other target (a WASM grammar, package.json, the demo replay file) is
//   a file the tsc build leaves beside its module: the URL is rewritten to it;
// - a `new URL(…, import.meta.url)` whose first argument is not a string
//   literal cannot be followed at bundle time: it is a build error naming the
//   file and line (spell each target as its own literal); so is any other use
//   of `import.meta` than these, `createRequire(import.meta.url)` (packages
//   resolve the same from a chunk) and `import.meta.url.endsWith(".ts")`.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Any `new URL(<anything>, import.meta.url)`; the first group is the first argument. */
const ANY_URL = /new URL\(\s*([^,()]*(?:\([^()]*\)[^,()]*)*),\s*import\.meta\.url\s*\)/g;
const LITERAL = /^(["'])([^"'`$]+)\1$/;
/** Uses of import.meta that mean the same from a chunk of the bundle. */
const HARMLESS = /createRequire\(import\.meta\.url\)|import\.meta\.url\.endsWith\("\.ts"\)/g;

/** Every .ts/.tsx file under `dir`. */
function sourceFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...sourceFiles(full));
    else if (/\.tsx?$/.test(name) && !name.endsWith(".d.ts")) files.push(full);
  }
  return files;
}

/** The source module a literal names ("./x.js" or "./x.ts" beside `file`), or undefined. */
function sourceModule(file, literal) {
  const target = path.resolve(path.dirname(file), literal);
  if (!/\.[jt]sx?$/.test(target)) return undefined;
  const stem = target.replace(/\.[jt]sx?$/, "");
  for (const ext of [".ts", ".tsx"]) {
    try {
      if (statSync(stem + ext).isFile()) return stem + ext;
    } catch {
      // not this extension
    }
  }
  return undefined;
}

/**
 * Reads one module's text: its URLs as { literal, module? } (module: the source
 * module it names), and problems ("file:line: …") for URLs that are not literals.
 */
export function urlsIn(file, source, sourceDir) {
  // Comment lines blanked (kept as lines, for the line numbers): a comment naming import.meta is no use of it.
  const text = source.replace(/^\s*(\/\/|\/?\*).*$/gm, "");
  const urls = [];
  const problems = [];
  for (const match of text.matchAll(ANY_URL)) {
    const argument = (match[1] ?? "").trim();
    const literal = LITERAL.exec(argument)?.[2];
    if (literal === undefined) {
      const line = text.slice(0, match.index).split("\n").length;
      const where = `${path.relative(path.dirname(sourceDir), file)}:${line}`;
      problems.push(
        `${where}: new URL(${argument}, import.meta.url) is not a string literal, so the bundle cannot follow it — write each target as its own literal`,
      );
      continue;
    }
    urls.push({ literal, module: sourceModule(file, literal) });
  }
  const uses = text.match(/import\.meta\b/g)?.length ?? 0;
  const known = (text.match(ANY_URL)?.length ?? 0) + (text.match(HARMLESS)?.length ?? 0);
  if (uses > known) {
    problems.push(
      `${path.relative(path.dirname(sourceDir), file)}: uses import.meta in a way the bundle cannot follow — use new URL("…", import.meta.url) with a literal`,
    );
  }
  return { urls, problems };
}

/** The bundle entry name of a source module: its path under source/, without extension, "/" → "-". */
function entryName(sourceDir, module) {
  return path
    .relative(sourceDir, module)
    .replace(/\.tsx?$/, "")
    .split(path.sep)
    .join("-");
}

/** Every source module some module-relative URL names (entry name → file), and every problem. */
export function scanSource(sourceDir) {
  const entries = {};
  const problems = [];
  for (const file of sourceFiles(sourceDir)) {
    const text = readFileSync(file, "utf8");
    if (!text.includes("import.meta.url")) continue;
    const found = urlsIn(file, text, sourceDir);
    problems.push(...found.problems);
    for (const { module } of found.urls) {
      if (module !== undefined) entries[entryName(sourceDir, module)] = module;
    }
  }
  return { entries, problems };
}
