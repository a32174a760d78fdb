import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { globTool } from "../../source/tools/builtin/glob.js";
import { grepTool } from "../../source/tools/builtin/grep.js";
import { call, contextFor, expectError, expectOk, makeTempDir } from "./helpers.js";

const glob = globTool();
const grep = grepTool();

async function put(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(root, path, ".."), { recursive: true });
    await writeFile(join(root, path), content);
  }
}

describe("Glob", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir("glob"));
  });
  afterEach(() => cleanup());

  it("finds files newest first, with dotfiles, skipping .git and node_modules", async () => {
    await put(dir, {
      "src/old.ts": "",
      "src/new.ts": "",
      "src/deep/mid.ts": "",
      ".config/x.ts": "",
      "node_modules/pkg/index.ts": "",
      ".git/hooks/a.ts": "",
      "readme.md": "",
    });
    await utimes(join(dir, "src/old.ts"), 1_000, 1_000);
    await utimes(join(dir, "src/deep/mid.ts"), 2_000, 2_000);
    await utimes(join(dir, ".config/x.ts"), 2_500, 2_500);
    await utimes(join(dir, "src/new.ts"), 3_000, 3_000);
    const result = expectOk(await call(glob, { pattern: "**/*.ts" }, contextFor(dir)));
    expect(result.output.split("\n")).toEqual([
      join(dir, "src/new.ts"),
      join(dir, ".config/x.ts"),
      join(dir, "src/deep/mid.ts"),
      join(dir, "src/old.ts"),
    ]);
    expect(result.response).toMatchObject({ numFiles: 4, truncated: false });
  });

  it("searches under path, accepts an absolute pattern, and says when nothing matches", async () => {
    await put(dir, { "a/one.js": "", "b/two.js": "" });
    const under = expectOk(await call(glob, { pattern: "*.js", path: "a" }, contextFor(dir)));
    expect(under.output).toBe(join(dir, "a/one.js"));
    const absolute = expectOk(await call(glob, { pattern: join(dir, "b/*.js") }, contextFor(dir)));
    expect(absolute.output).toBe(join(dir, "b/two.js"));
    expect(expectOk(await call(glob, { pattern: "**/*.py" }, contextFor(dir))).output).toBe(
      "No files found",
    );
  });

  it("reports a missing directory", async () => {
    expect(
      expectError(await call(glob, { pattern: "*", path: "nope" }, contextFor(dir))).error,
    ).toMatch(/^Directory not found: .*nope/);
  });
});

describe("Grep", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    ({ dir, cleanup } = await makeTempDir("grep"));
    await put(dir, {
      "src/a.ts": "import x from 'y';\nconst Needle = 1;\nexport default x;\n",
      "src/b.js": "needle();\nneedle();\nother\n",
      "docs/c.md": "no match here\n",
      "node_modules/m/i.js": "needle\n",
      ".git/config": "needle\n",
      "bin.dat": Buffer.concat([Buffer.from("needle"), Buffer.from([0, 1, 2])]),
    });
  });
  afterEach(() => cleanup());

  it("lists matching files by default, sorted by path, skipping binary, .git and node_modules", async () => {
    const result = expectOk(await call(grep, { pattern: "needle", "-i": true }, contextFor(dir)));
    expect(result.output).toBe(`Found 2 files\n${join(dir, "src/a.ts")}\n${join(dir, "src/b.js")}`);
    expect(result.response).toMatchObject({ mode: "files_with_matches", numFiles: 2 });
  });

  it("is case-sensitive unless -i", async () => {
    const result = expectOk(await call(grep, { pattern: "Needle" }, contextFor(dir)));
    expect(result.output).toBe(`Found 1 file\n${join(dir, "src/a.ts")}`);
  });

  it("shows matching lines with numbers and context in content mode", async () => {
    const result = expectOk(
      await call(
        grep,
        { pattern: "Needle", output_mode: "content", "-C": 1, path: "src" },
        contextFor(dir),
      ),
    );
    const a = join(dir, "src/a.ts");
    expect(result.output).toBe(
      `${a}-1-import x from 'y';\n${a}:2:const Needle = 1;\n${a}-3-export default x;`,
    );
    const plain = expectOk(
      await call(
        grep,
        { pattern: "^needle", output_mode: "content", "-n": false, path: "src/b.js" },
        contextFor(dir),
      ),
    );
    expect(plain.output).toBe(
      `${join(dir, "src/b.js")}:needle();\n${join(dir, "src/b.js")}:needle();`,
    );
  });

  it("counts matches per file, filters by glob, honours head_limit", async () => {
    const counted = expectOk(
      await call(grep, { pattern: "needle", output_mode: "count", glob: "*.js" }, contextFor(dir)),
    );
    expect(counted.output).toBe(`2 matches in 1 file\n${join(dir, "src/b.js")}:2`);
    const limited = expectOk(
      await call(
        grep,
        { pattern: "needle", output_mode: "content", head_limit: 1, "-i": true },
        contextFor(dir),
      ),
    );
    expect(limited.output).toBe(
      `${join(dir, "src/a.ts")}:2:const Needle = 1;\n(showing the first 1 entry; more were found)`,
    );
  });

  it("reports an invalid regex and a missing path, and no matches", async () => {
    expect(expectError(await call(grep, { pattern: "(" }, contextFor(dir))).error).toMatch(
      /^Invalid regular expression/,
    );
    expect(
      expectError(await call(grep, { pattern: "x", path: "nope" }, contextFor(dir))).error,
    ).toMatch(/^Path not found/);
    expect(expectOk(await call(grep, { pattern: "zzz-absent" }, contextFor(dir))).output).toBe(
      "No matches found",
    );
  });

  it("skips files over 10 MiB and says so", async () => {
    await writeFile(join(dir, "big.log"), `needle\n${"z".repeat(10 * 1024 * 1024)}`);
    const result = expectOk(
      await call(grep, { pattern: "needle", glob: "*.log" }, contextFor(dir)),
    );
    expect(result.output).toBe("No matches found\n(1 file over 10 MiB not searched)");
  });
});

describe("Glob and Grep on a 10,000-file tree", () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await makeTempDir("tree"));
    const writes: Promise<void>[] = [];
    for (let d = 0; d < 100; d++) {
      await mkdir(join(dir, `pkg${d}`, "src"), { recursive: true });
      for (let f = 0; f < 100; f++) {
        const marker = d === 42 && f % 10 === 0 ? "TARGET_SYMBOL" : "ordinary";
        const ext = f % 2 === 0 ? "ts" : "md";
        writes.push(
          writeFile(
            join(dir, `pkg${d}`, "src", `file${f}.${ext}`),
            `line one\n${marker} ${d}/${f}\n`,
          ),
        );
      }
    }
    await mkdir(join(dir, "node_modules", "dep"), { recursive: true });
    for (let f = 0; f < 500; f++) {
      writes.push(writeFile(join(dir, "node_modules", "dep", `n${f}.ts`), "TARGET_SYMBOL\n"));
    }
    await Promise.all(writes);
  }, 60_000);
  afterAll(() => cleanup());

  it("Glob counts every .ts file outside node_modules", async () => {
    const result = expectOk(await call(glob, { pattern: "**/*.ts" }, contextFor(dir)));
    expect(result.response).toMatchObject({ numFiles: 5000, truncated: true });
    expect(result.output.split("\n")).toHaveLength(101);
  });

  it("Grep finds exactly the planted matches", async () => {
    const result = expectOk(
      await call(grep, { pattern: "TARGET_SYMBOL", glob: "*.ts" }, contextFor(dir)),
    );
    const expected = Array.from({ length: 10 }, (_, i) =>
      join(dir, "pkg42", "src", `file${i * 10}.ts`),
    ).sort();
    expect((result.response as { filenames: string[] }).filenames).toEqual(expected);
    const counted = expectOk(
      await call(grep, { pattern: "ordinary|TARGET", output_mode: "count" }, contextFor(dir)),
    );
    expect(counted.response).toMatchObject({ numFiles: 10_000, numMatches: 10_000 });
  });
});
