/**
 * The YAML frontmatter of a HOOK.md, read defensively: the file is project
 * content, possibly hostile, parsed before anything is trusted (size, aliases,
 * depth and node limits; the `yaml` package loaded on first use).
 */
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "./json-depth.js";
import { formatBytes } from "./read-regular-file.js";

export type FrontmatterResult = { ok: true; data: unknown } | { ok: false; reason: string };

type YamlModule = typeof import("yaml");
let yamlModule: Promise<YamlModule> | undefined;

/**
 * Frontmatter is a few lines of settings; past this it is refused unparsed
 * (hostile YAML of this size still parses in a fraction of a second).
 */
const MAX_FRONTMATTER_BYTES = 16 * 1024;
/** At most this many aliases (`*name`): a few are normal, many expand exponentially. */
const MAX_YAML_ALIASES = 16;
/**
 * Block nesting needs indentation (or `- `/`? ` on the same line), so the
 * column where a line's content starts bounds how deep a block can nest. The
 * YAML parser recurses per level, and deep enough it crashes the process (not
 * only an exception), so nesting is bounded on the text before parsing.
 */
const MAX_YAML_CONTENT_COLUMN = 2 * MAX_JSON_DEPTH;
/** Nodes visited when measuring the parsed value (aliases may repeat a subtree). */
const MAX_YAML_NODES = 100_000;

/** The `yaml` package, imported on first use: most projects have no HOOK.md (start-up time). */
function loadYaml(): Promise<YamlModule> {
  yamlModule ??= import("yaml");
  return yamlModule;
}

/**
 * Parses with limits: aliases capped, warnings not printed (they would quote
 * project text on stderr), and no list or map as a key, which the parser
 * turns into text at a cost that grows with nesting (seconds for 16 KiB).
 */
function parseYaml(yaml: YamlModule, text: string): unknown {
  const options = { maxAliasCount: MAX_YAML_ALIASES, logLevel: "error" } as const;
  const doc = yaml.parseDocument(text, options);
  const [error] = doc.errors;
  if (error) throw error;
  const nodes: unknown[] = [doc.contents];
  while (nodes.length > 0) {
    const node = nodes.pop();
    if (yaml.isPair(node)) {
      if (yaml.isCollection(node.key)) throw new Error("a key is a list or a map; use plain keys");
      nodes.push(node.value);
    } else if (yaml.isCollection(node)) {
      for (const item of node.items) nodes.push(item);
    }
  }
  return doc.toJS(options);
}

/** Why the frontmatter text is refused before parsing, if it is. */
function frontmatterTooBig(yamlText: string): string | undefined {
  const bytes = Buffer.byteLength(yamlText);
  if (bytes > MAX_FRONTMATTER_BYTES) {
    return `larger than ${formatBytes(MAX_FRONTMATTER_BYTES)} (${formatBytes(bytes)})`;
  }
  const tooDeep = `nests more than ${MAX_JSON_DEPTH} levels deep`;
  // Flow collections: brackets outside double-quoted strings (brackets in other scalars count too: conservative).
  if (jsonTextTooDeep(yamlText, MAX_JSON_DEPTH)) return tooDeep;
  for (const line of yamlText.split("\n")) {
    const indent = /^[ \t]*(?:[-?:](?:[ \t]+|$))*/.exec(line)?.[0].length ?? 0;
    if (indent > MAX_YAML_CONTENT_COLUMN) return tooDeep;
  }
  return undefined;
}

/** Whether a parsed value nests deeper than MAX_JSON_DEPTH (iterative; aliases may share subtrees). */
function parsedTooDeep(value: unknown): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let visited = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== "object") continue;
    if (item.depth >= MAX_JSON_DEPTH || ++visited > MAX_YAML_NODES) return true;
    const children = Array.isArray(item.value) ? item.value : Object.values(item.value);
    for (const child of children) stack.push({ value: child, depth: item.depth + 1 });
  }
  return false;
}

/** The YAML between the leading `---` lines of a HOOK.md. */
export async function readFrontmatter(text: string): Promise<FrontmatterResult> {
  const match = /^\uFEFF?---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match)
    return {
      ok: false,
      reason: "HOOK.md has no YAML frontmatter (a block between --- lines at the top)",
    };
  const yamlText = match[1] ?? "";
  const refused = frontmatterTooBig(yamlText);
  if (refused) return { ok: false, reason: `invalid YAML frontmatter: ${refused}` };
  const yaml = await loadYaml();
  let data: unknown;
  try {
    data = parseYaml(yaml, yamlText);
  } catch (error) {
    return { ok: false, reason: `invalid YAML frontmatter: ${describeYamlError(error, text)}` };
  }
  if (parsedTooDeep(data)) {
    return {
      ok: false,
      reason: `invalid YAML frontmatter: nests more than ${MAX_JSON_DEPTH} levels deep (aliases included)`,
    };
  }
  return { ok: true, data };
}

const SNIPPET_MAX = 80;

/**
 * The parser's first line with the position in HOOK.md itself (the frontmatter
 * starts on line 2) instead of its dangling "at line L, column C:", then the
 * offending line, quoted so that a tab shows (`"\tname: x"`).
 */
function describeYamlError(error: unknown, text: string): string {
  if (!(error instanceof Error)) return String(error);
  const first = error.message.split("\n")[0] ?? "";
  const pos = (error as { linePos?: readonly { line: number; col: number }[] }).linePos?.[0];
  if (pos === undefined) return first.replace(/:\s*$/, "");
  const message = first.replace(/\s*at line \d+, column \d+:?\s*$/, "");
  const fileLine = pos.line + 1;
  const source = text.replace(/^\uFEFF/, "").split(/\r?\n/)[fileLine - 1];
  const where = `HOOK.md line ${fileLine}, column ${pos.col}`;
  const hint = (error as { code?: string }).code === "BAD_DQ_ESCAPE" ? DQ_ESCAPE_HINT : "";
  if (source === undefined || source.trim() === "") return `${message} (${where})${hint}`;
  const snippet = source.length > SNIPPET_MAX ? `${source.slice(0, SNIPPET_MAX)}…` : source;
  return `${message} (${where}: ${JSON.stringify(snippet)})${hint}`;
}

/**
 * The Agent Hooks spec's own example, `pattern: "\.(py|js|ts)$"`, is invalid
 * YAML in every parser: inside double quotes a backslash starts an escape.
 */
const DQ_ESCAPE_HINT =
  "; inside double quotes YAML reads a backslash as an escape: write a regular expression in single quotes ('\\.(py|js|ts)$') or unquoted, or double the backslash";
