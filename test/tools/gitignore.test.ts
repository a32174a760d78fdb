import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../../source/tools/builtin/glob.js";
import { grepTool } from "../../source/tools/builtin/grep.js";
import { call, contextFor, expectOk, makeTempDir } from "./helpers.js";

const glob = globTool();
const grep = grepTool();

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

/** Glob's matches under `cwd`, relative to `base` (default `cwd`), sorted. */
async function globbed(cwd: string, input: Record<string, unknown>, base = cwd) {
  const result = expectOk(await call(glob, input, contextFor(cwd)));
  const { filenames } = result.response as { filenames: string[] };
  return filenames.map((f) => f.slice(base.length + 1)).sort();
}

/** Grep's matching files under `cwd`, relative to it. */
async function grepped(cwd: string, input: Record<string, unknown>) {
  const result = expectOk(await call(grep, input, contextFor(cwd)));
  const { filenames } = result.response as { filenames: string[] };
  return filenames.map((f) => f.slice(cwd.length + 1));
}

const TREE = {
  "src/app.ts": "needle",
  "src/build/out.ts": "needle",
  "src/debug.log": "needle",
  "src/keep.log": "needle",
  "build/bundle.ts": "needle",
  "dist/x.js": "needle",
  "dist/sub/y.js": "needle",
  "lib/dist": "needle", // a file named like the dir-only pattern
  "docs/a/b/page.gen.md": "needle",
  "docs/page.md": "needle",
  "node_modules/m/i.js": "needle",
  ".git/config": "needle",
};

const ROOT_GITIGNORE = [
  "# comment",
  "*.log",
  "!keep.log",
  "dist/",
  "/build",
  "docs/**/*.gen.md",
  "",
].join("\n");

describe("Glob and Grep honour .gitignore", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir("gitignore"));
    await put(dir, TREE);
  });
  afterEach(() => cleanup());

  it("a project without .gitignore is unchanged: only .git and node_modules are skipped", async () => {
    const all = [
      "build/bundle.ts",
      "dist/sub/y.js",
      "dist/x.js",
      "docs/a/b/page.gen.md",
      "docs/page.md",
      "lib/dist",
      "src/app.ts",
      "src/build/out.ts",
      "src/debug.log",
      "src/keep.log",
    ];
    expect(await globbed(dir, { pattern: "**/*" })).toEqual(all);
    expect(await grepped(dir, { pattern: "needle" })).toEqual(all);
  });

  it("applies the root .gitignore: globs, negation, dir-only and anchored patterns, **", async () => {
    await put(dir, { ".gitignore": ROOT_GITIGNORE });
    const kept = [
      ".gitignore",
      "docs/page.md",
      "lib/dist", // "dist/" matches directories only
      "src/app.ts",
      "src/build/out.ts", // "/build" is anchored to the root
      "src/keep.log", // "!keep.log" re-includes it
    ];
    expect(await globbed(dir, { pattern: "**/*" })).toEqual(kept);
    expect(await grepped(dir, { pattern: "needle" })).toEqual(kept.slice(1));
    expect(await grepped(dir, { pattern: "needle", glob: "*.log" })).toEqual(["src/keep.log"]);
    expect(await globbed(dir, { pattern: "dist/**" })).toEqual([]);
  });

  it("applies nested .gitignore files below their directory only, deepest rule first", async () => {
    await put(dir, {
      ".gitignore": "*.log\n",
      "src/.gitignore": "!debug.log\nbuild/\n*.ts\n!app.ts\n",
      "docs/.gitignore": "a/\n",
    });
    expect(await globbed(dir, { pattern: "**/*" })).toEqual([
      ".gitignore",
      "build/bundle.ts", // src/.gitignore's "*.ts" and "build/" do not reach here
      "dist/sub/y.js",
      "dist/x.js",
      "docs/.gitignore",
      "docs/page.md",
      "lib/dist",
      "src/.gitignore",
      "src/app.ts",
      "src/debug.log", // re-included by the nested "!debug.log"
    ]);
    // Searching below the project still applies the .gitignore files above.
    expect(await grepped(dir, { pattern: "needle", path: "src" })).toEqual([
      "src/app.ts",
      "src/debug.log",
    ]);
  });

  it("still searches a file or an ignored directory named as path", async () => {
    await put(dir, { ".gitignore": "dist/\n*.log\n" });
    expect(await grepped(dir, { pattern: "needle", path: "dist/x.js" })).toEqual(["dist/x.js"]);
    expect(await grepped(dir, { pattern: "needle", path: "src/debug.log" })).toEqual([
      "src/debug.log",
    ]);
    expect(await grepped(dir, { pattern: "needle", path: "dist" })).toEqual([
      "dist/sub/y.js",
      "dist/x.js",
    ]);
    expect(await globbed(dir, { pattern: "**/*.js", path: "dist" })).toEqual([
      "dist/sub/y.js",
      "dist/x.js",
    ]);
  });

  it("reads .gitignore up to the git work tree's top, but not above an unversioned project", async () => {
    const repo = join(dir, "repo");
    await put(repo, {
      ".gitignore": "*.secret\n",
      "app/main.ts": "needle",
      "app/key.secret": "needle",
    });
    await mkdir(join(repo, ".git"));
    const app = join(repo, "app");
    expect(await globbed(app, { pattern: "**/*" }, app)).toEqual(["main.ts"]);

    // `dir` holds a .git (see TREE), so the unversioned case gets its own folder.
    const other = await makeTempDir("gitignore-outer");
    try {
      await put(other.dir, { ".gitignore": "*.md\n", "proj/readme.md": "needle" });
      const proj = join(other.dir, "proj");
      expect(await globbed(proj, { pattern: "**/*" }, proj)).toEqual(["readme.md"]);
      expect(await globbed(other.dir, { pattern: "**/*" }, other.dir)).toEqual([".gitignore"]);
    } finally {
      await other.cleanup();
    }
  });

  it("limits a pattern without ** to its depth and its static base", async () => {
    await put(dir, { "top.ts": "", ".gitignore": "bundle.ts\n" });
    expect(await globbed(dir, { pattern: "*.ts" })).toEqual(["top.ts"]);
    expect(await globbed(dir, { pattern: "src/*.ts" })).toEqual(["src/app.ts"]);
    expect(await globbed(dir, { pattern: "./src/**/*.ts" })).toEqual([
      "src/app.ts",
      "src/build/out.ts",
    ]);
    expect(await globbed(dir, { pattern: "build/*" })).toEqual([]);
    expect(await globbed(dir, { pattern: "{src,build}/*.ts" })).toEqual(["src/app.ts"]);
  });
});
