import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../source/tools/builtin/edit.js";
import { readTool } from "../../source/tools/builtin/read.js";
import { writeTool } from "../../source/tools/builtin/write.js";
import { call, contextFor, expectError, expectOk, makeTempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("files"));
});
afterEach(() => cleanup());

const read = readTool();
const write = writeTool();
const edit = editTool();

describe("Read", () => {
  it("numbers lines like cat -n, resolving relative paths against cwd", async () => {
    await writeFile(join(dir, "a.txt"), "alpha\nbeta\r\ngamma\n");
    const result = expectOk(await call(read, { file_path: "a.txt" }, contextFor(dir)));
    expect(result.output).toBe("     1\talpha\n     2\tbeta\n     3\tgamma");
    expect(result.response).toEqual({
      type: "text",
      file: {
        filePath: join(dir, "a.txt"),
        content: "alpha\nbeta\ngamma",
        numLines: 3,
        startLine: 1,
        totalLines: 3,
      },
    });
  });

  it("honours a 1-based offset and a limit, and says what is shown", async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join("\n");
    await writeFile(join(dir, "b.txt"), lines);
    const result = expectOk(
      await call(read, { file_path: join(dir, "b.txt"), offset: 10, limit: 3 }, contextFor(dir)),
    );
    expect(result.output).toBe(
      "    10\tline 10\n    11\tline 11\n    12\tline 12\n\n(showing lines 10-12 of 50; use offset and limit to read more)",
    );
  });

  it("reads 2000 lines by default", async () => {
    await writeFile(
      join(dir, "long.txt"),
      Array.from({ length: 2500 }, (_, i) => `${i + 1}`).join("\n"),
    );
    const result = expectOk(await call(read, { file_path: "long.txt" }, contextFor(dir)));
    expect(result.output).toContain("  2000\t2000\n\n(showing lines 1-2000 of 2500");
    expect(result.output).not.toContain("\t2001");
  });

  it("cuts very long lines", async () => {
    await writeFile(join(dir, "wide.txt"), "x".repeat(5000));
    const result = expectOk(await call(read, { file_path: "wide.txt" }, contextFor(dir)));
    expect(result.output).toBe(`     1\t${"x".repeat(2000)}… [line truncated]`);
  });

  it("refuses a binary file", async () => {
    await writeFile(join(dir, "bin.dat"), Buffer.from([0x89, 0x50, 0x00, 0x01]));
    const result = expectError(await call(read, { file_path: "bin.dat" }, contextFor(dir)));
    expect(result.error).toMatch(/bin\.dat is a binary file/);
  });

  it("refuses a huge file without offset/limit, but reads a part of it", async () => {
    const line = `${"y".repeat(99)}\n`;
    await writeFile(join(dir, "huge.log"), `first\n${line.repeat(110_000)}last\n`);
    const refused = expectError(await call(read, { file_path: "huge.log" }, contextFor(dir)));
    expect(refused.error).toMatch(
      /too large to read whole \(10\.5 MiB, limit 10 MiB\).*offset and limit/,
    );
    const part = expectOk(
      await call(read, { file_path: "huge.log", offset: 1, limit: 2 }, contextFor(dir)),
    );
    expect(part.output).toBe(
      `     1\tfirst\n     2\t${"y".repeat(99)}\n\n(showing lines 1-2 of a large file; use offset to read more)`,
    );
  });

  it("reports missing files, directories, and an offset past the end", async () => {
    expect(expectError(await call(read, { file_path: "nope.txt" }, contextFor(dir))).error).toBe(
      `File not found: ${join(dir, "nope.txt")}`,
    );
    expect(expectError(await call(read, { file_path: "." }, contextFor(dir))).error).toMatch(
      /is a directory/,
    );
    await writeFile(join(dir, "short.txt"), "one\ntwo\n");
    expect(
      expectError(await call(read, { file_path: "short.txt", offset: 5 }, contextFor(dir))).error,
    ).toMatch(/has 2 lines; offset 5 is past the end/);
  });

  it("says when a file is empty", async () => {
    await writeFile(join(dir, "empty.txt"), "");
    expect(expectOk(await call(read, { file_path: "empty.txt" }, contextFor(dir))).output).toMatch(
      /is empty/,
    );
  });

  it("rejects an offset of 0 naming the field", () => {
    const checked = read.validate({ file_path: "a", offset: 0 });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toMatch(/^Invalid input for Read: offset:/);
  });
});

describe("Write", () => {
  it("creates parent directories and reports create vs update", async () => {
    const created = expectOk(
      await call(write, { file_path: "deep/er/new.txt", content: "a\nb\n" }, contextFor(dir)),
    );
    expect(await readFile(join(dir, "deep/er/new.txt"), "utf8")).toBe("a\nb\n");
    expect(created.output).toBe(`Created ${join(dir, "deep/er/new.txt")} (2 lines, 4 bytes)`);
    expect(created.response).toMatchObject({ type: "create" });
    const updated = expectOk(
      await call(write, { file_path: "deep/er/new.txt", content: "" }, contextFor(dir)),
    );
    expect(updated.response).toMatchObject({ type: "update", content: "" });
    expect(await readFile(join(dir, "deep/er/new.txt"), "utf8")).toBe("");
  });

  it("refuses to write over a directory", async () => {
    await mkdir(join(dir, "d"));
    expect(
      expectError(await call(write, { file_path: "d", content: "x" }, contextFor(dir))).error,
    ).toMatch(/is a directory/);
  });

  it("requires content", () => {
    const checked = write.validate({ file_path: "x" });
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toMatch(/content:/);
  });
});

describe("Edit", () => {
  const file = () => join(dir, "code.ts");

  it("replaces a unique string and shows the changed region", async () => {
    await writeFile(file(), "const a = 1;\nconst b = 2;\nconst c = 3;\n");
    const result = expectOk(
      await call(
        edit,
        { file_path: "code.ts", old_string: "const b = 2;", new_string: "const b = 20;" },
        contextFor(dir),
      ),
    );
    expect(await readFile(file(), "utf8")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    expect(result.output).toContain("Replaced 1 occurrence in");
    expect(result.output).toContain("     2\tconst b = 20;");
    expect(result.response).toMatchObject({ replaceAll: false, replacements: 1 });
  });

  it("refuses a string that is not unique, giving the count", async () => {
    await writeFile(file(), "x = 1\nx = 1\nx = 1\n");
    const result = expectError(
      await call(
        edit,
        { file_path: "code.ts", old_string: "x = 1", new_string: "x = 2" },
        contextFor(dir),
      ),
    );
    expect(result.error).toMatch(/occurs 3 times .*replace_all/);
    expect(await readFile(file(), "utf8")).toBe("x = 1\nx = 1\nx = 1\n");
  });

  it("replaces every occurrence with replace_all, literally", async () => {
    await writeFile(file(), "x = 1\nx = 1\n");
    const result = expectOk(
      await call(
        edit,
        { file_path: "code.ts", old_string: "1", new_string: "$&$1", replace_all: true },
        contextFor(dir),
      ),
    );
    expect(await readFile(file(), "utf8")).toBe("x = $&$1\nx = $&$1\n");
    expect(result.response).toMatchObject({ replacements: 2 });
  });

  it("reports a string that is not found, and identical strings", async () => {
    await writeFile(file(), "hello\n");
    expect(
      expectError(
        await call(
          edit,
          { file_path: "code.ts", old_string: "bye", new_string: "x" },
          contextFor(dir),
        ),
      ).error,
    ).toMatch(/old_string was not found in .*code\.ts/);
    expect(
      expectError(
        await call(
          edit,
          { file_path: "code.ts", old_string: "hello", new_string: "hello" },
          contextFor(dir),
        ),
      ).error,
    ).toMatch(/identical/);
  });

  it("creates a new file from an empty old_string, but not over a non-empty one", async () => {
    expectOk(
      await call(
        edit,
        { file_path: "new/f.txt", old_string: "", new_string: "hi" },
        contextFor(dir),
      ),
    );
    expect(await readFile(join(dir, "new/f.txt"), "utf8")).toBe("hi");
    expect(
      expectError(
        await call(
          edit,
          { file_path: "new/f.txt", old_string: "", new_string: "x" },
          contextFor(dir),
        ),
      ).error,
    ).toMatch(/already exists and is not empty/);
  });

  it("reports a missing file", async () => {
    expect(
      expectError(
        await call(
          edit,
          { file_path: "missing.ts", old_string: "a", new_string: "b" },
          contextFor(dir),
        ),
      ).error,
    ).toMatch(/^File not found: .*missing\.ts/);
  });

  it("defaults replace_all to false in validate", () => {
    const checked = edit.validate({ file_path: "a", old_string: "b", new_string: "c" });
    expect(checked).toEqual({
      ok: true,
      value: { file_path: "a", old_string: "b", new_string: "c", replace_all: false },
    });
  });
});
