/**
 * The documentation cannot drift from the code or from itself: every relative
 * link and anchor resolves, every page of docs/ is linked from the README,
 * every flag docs/cli.md documents is one `acai --help` knows, and every
 * message docs/troubleshooting.md quotes is one acai still prints.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { CLI_PATH, REPO_ROOT } from "../support/run-acai.js";

const run = promisify(execFile);

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : markdownFiles(rel);
    return entry.name.endsWith(".md") ? [rel] : [];
  });
}

const PAGES = [
  "README.md",
  "CONTRIBUTING.md",
  "CHANGELOG.md",
  "bench/README.md",
  ...markdownFiles("docs"),
  ...markdownFiles("examples"),
].filter((file) => existsSync(path.join(REPO_ROOT, file)));

/** The page's text with fenced code blocks and inline code removed (links there are examples). */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[\s\S]*?^\1/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, blanks as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

const anchorCache = new Map<string, Set<string>>();
function anchorsOf(file: string): Set<string> {
  const known = anchorCache.get(file);
  if (known) return known;
  const text = readFileSync(file, "utf8").replace(/^(```|~~~)[\s\S]*?^\1/gm, "");
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)) {
    const base = slug(match[1] as string);
    const count = seen.get(base) ?? 0;
    anchors.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  for (const match of text.matchAll(/<a (?:name|id)="([^"]+)"/g)) anchors.add(match[1] as string);
  anchorCache.set(file, anchors);
  return anchors;
}

/** "file: what is wrong" for each relative link of the page that does not resolve. */
function brokenLinks(page: string): string[] {
  const text = prose(readFileSync(path.join(REPO_ROOT, page), "utf8"));
  const broken: string[] = [];
  for (const match of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = match[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [file = "", anchor] = target.split("#");
    const resolved =
      file === "" ? path.join(REPO_ROOT, page) : path.resolve(REPO_ROOT, path.dirname(page), file);
    if (!existsSync(resolved)) {
      broken.push(`${page}: ${target} (no such file)`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith(".md") && statSync(resolved).isFile()) {
      if (!anchorsOf(resolved).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
    }
  }
  return broken;
}

describe("the documentation", () => {
  it("has no broken relative link or anchor", () => {
    expect(PAGES.length).toBeGreaterThan(15);
    expect(PAGES.flatMap(brokenLinks)).toEqual([]);
  });

  it("links every page of docs/ from the README", () => {
    const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const pages = readdirSync(path.join(REPO_ROOT, "docs")).filter((name) => name.endsWith(".md"));
    expect(pages).toContain("quickstart.md");
    expect(pages.filter((name) => !readme.includes(`](docs/${name}`))).toEqual([]);
  });

  it("documents in docs/cli.md only flags that acai --help knows", async () => {
    const { stdout: help } = await run(process.execPath, [CLI_PATH, "--help"], {
      env: { ...process.env, NO_COLOR: "1" },
    });
    const cli = readFileSync(path.join(REPO_ROOT, "docs", "cli.md"), "utf8");
    const rows = cli.split("\n").filter((line) => /^\| `-/.test(line));
    const flags = rows.flatMap((row) =>
      [...(row.split("|")[1] ?? "").matchAll(/(--?[a-zA-Z][\w-]*)/g)].map((m) => m[1] as string),
    );
    expect(flags).toContain("--print");
    expect(flags.filter((flag) => !new RegExp(`(^|[\\s,])${flag}\\b`).test(help))).toEqual([]);
  });

  it("quotes in docs/troubleshooting.md only messages acai still prints", () => {
    const page = readFileSync(path.join(REPO_ROOT, "docs", "troubleshooting.md"), "utf8");
    const quoted = [...page.matchAll(/^### `([^`]+)`$/gm)].map((m) => m[1] as string);
    expect(quoted.length).toBeGreaterThan(10);
    const sources = markdownFilesOf("source").map((file) =>
      readFileSync(path.join(REPO_ROOT, file), "utf8"),
    );
    expect(quoted.filter((message) => !sources.some((text) => text.includes(message)))).toEqual([]);
  });
});

function markdownFilesOf(dir: string): string[] {
  return readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return markdownFilesOf(rel);
    return /\.(ts|tsx)$/.test(entry.name) ? [rel] : [];
  });
}
