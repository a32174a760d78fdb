/**
 * The Bash grammar: tree-sitter-bash's WASM build through web-tree-sitter
 * (decision 0014). Loading is asynchronous (WebAssembly) and done once, when
 * a session starts; after that a line parses synchronously, so `decide()`
 * stays a pure function over the analysis.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { Language, Parser, type Tree } from "web-tree-sitter";
import {
  analyzeTree,
  type CommandAnalysis,
  type ScriptParser,
  type ShellAnalyzer,
} from "./analyze.js";
import { memoizedAnalyzer } from "./memo.js";

export interface ShellAnalyzerOptions {
  /** The grammar's WASM file; by default the copy beside this module in dist/, else tree-sitter-bash's. */
  grammarPath?: string;
  /**
   * Keep the grammar in V8's baseline WebAssembly compiler (Liftoff): V8 then never compiles
   * its hot functions again with TurboFan in the background, which for tree-sitter-bash's
   * lexer took seconds of CPU and ~800 MB for no faster parse (decision 0072). It sets a V8
   * flag for the rest of the process, so acai's own commands ask for it and a program that
   * embeds acai does not.
   */
  baselineOnly?: boolean;
}

/**
 * V8 tiers up only the WebAssembly function of this index (-1, its default: any); no
 * function has index -2. V8 reads it each time a function runs hot, so it stays set.
 */
const NO_WASM_TIER_UP = "--wasm-tier-up-filter=-2";

/** Longer lines are not parsed: a rule never allows them. */
export const MAX_LINE_CHARS = 64 * 1024;

/**
 * web-tree-sitter keeps one WebAssembly instance per process, and calling its
 * `init` again replaces it under every parser already made: the load is
 * shared by every session of the process (tests run several).
 */
let runtime: Promise<void> | undefined;

export async function loadShellAnalyzer(
  options: ShellAnalyzerOptions = {},
): Promise<ShellAnalyzer> {
  if (options.baselineOnly) setFlagsFromString(NO_WASM_TIER_UP);
  runtime ??= Parser.init();
  await runtime;
  const language = await Language.load(options.grammarPath ?? defaultGrammarPath());
  const parser = new Parser();
  parser.setLanguage(language);
  const parse: ScriptParser = (text, depth) => parseLine(parser, text, depth, parse);
  // One parse per line however often it is judged (hooks' `if`, the permission check): memo.ts.
  return memoizedAnalyzer({
    analyze(line) {
      return parse(line, 0);
    },
  });
}

function parseLine(
  parser: Parser,
  line: string,
  depth: number,
  again: ScriptParser,
): CommandAnalysis {
  if (line.length > MAX_LINE_CHARS) return tooLong();
  const tree: Tree | null = parser.parse(line);
  if (tree === null) return { commands: [], writes: [], opaque: ["the command did not parse"] };
  try {
    return analyzeTree(tree.rootNode, depth, again);
  } finally {
    tree.delete();
  }
}

function tooLong(): CommandAnalysis {
  return {
    commands: [],
    writes: [],
    opaque: [`the command is longer than ${MAX_LINE_CHARS} characters`],
  };
}

function defaultGrammarPath(): string {
  const beside = fileURLToPath(new URL("./tree-sitter-bash.wasm", import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
}
