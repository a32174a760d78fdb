/**
 * Where a write lands (`landingOf`) and writing there without following a
 * link (`writeNoFollow`, the Write and Edit tools): links to folders not yet
 * created, dangling links, link loops, and a link swapped in after the
 * permission check judged the path.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { editTool } from "../../source/tools/builtin/edit.js";
import { readTool } from "../../source/tools/builtin/read.js";
import { writeTool } from "../../source/tools/builtin/write.js";
import { landingAsJudged, landingOf } from "../../source/tools/landing.js";
import { NotFollowedError, writeNoFollow } from "../../source/tools/write-no-follow.js";
import { call, contextFor, expectError, expectOk, makeTempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await makeTempDir("landing");
  cleanup = made.cleanup;
  dir = await realpath(made.dir);
  await mkdir(join(dir, "project", "src"), { recursive: true });
});
afterEach(() => cleanup());

const project = () => join(dir, "project");
const landing = (file: string) => {
  const result = landingOf(file);
  if (!result.ok) throw new Error(result.reason);
  return result.path;
};

describe("landingOf", () => {
  it("is the path itself without links, the missing part appended as given", () => {
    expect(landing(join(project(), "src", "a.txt"))).toBe(join(project(), "src", "a.txt"));
    expect(landing(join(project(), "new", "deep", "a.txt"))).toBe(
      join(project(), "new", "deep", "a.txt"),
    );
  });

  it("follows a link to a folder not created yet, and the path below it", async () => {
    await symlink("../../outside", join(project(), "src", "link"));
    expect(landing(join(project(), "src", "link", "new", "x.txt"))).toBe(
      join(dir, "outside", "new", "x.txt"),
    );
  });

  it("follows a dangling link to the file it would create", async () => {
    await symlink(join(dir, "elsewhere", "target.txt"), join(project(), "src", "dangle"));
    expect(landing(join(project(), "src", "dangle"))).toBe(join(dir, "elsewhere", "target.txt"));
  });

  it("follows chains of links, relative and absolute, with .. after a link", async () => {
    await mkdir(join(dir, "real", "inner"), { recursive: true });
    await symlink(join(dir, "real", "inner"), join(dir, "a"));
    await symlink("a/../inner/x", join(dir, "b"));
    // a/.. is real/ (the kernel's view), not dir/: then inner/x.
    expect(landing(join(dir, "b"))).toBe(join(dir, "real", "inner", "x"));
  });

  it("cannot tell a loop's landing", async () => {
    await symlink("loop2", join(dir, "loop1"));
    await symlink("loop1", join(dir, "loop2"));
    const result = landingOf(join(dir, "loop1", "x"));
    expect(result.ok).toBe(false);
  });

  it("refuses when the path now lands elsewhere than where it was judged", async () => {
    const file = join(project(), "src", "a.txt");
    expect(landingAsJudged(file, file)).toEqual({ ok: true, path: file });
    const moved = landingAsJudged(file, join(dir, "other.txt"));
    expect(moved.ok).toBe(false);
  });
});

describe("writeNoFollow", () => {
  it("creates the missing folders one by one and writes the file", async () => {
    const file = join(project(), "a", "b", "c.txt");
    expect(await writeNoFollow(file, "hi")).toEqual({ existed: false });
    expect(await readFile(file, "utf8")).toBe("hi");
    expect(await writeNoFollow(file, "again")).toEqual({ existed: true });
    expect(await readFile(file, "utf8")).toBe("again");
  });

  it("never follows a link in a folder above the file (a race that swapped one in)", async () => {
    await mkdir(join(dir, "outside"));
    await symlink(join(dir, "outside"), join(project(), "swapped"));
    await expect(writeNoFollow(join(project(), "swapped", "x.txt"), "x")).rejects.toThrow(
      NotFollowedError,
    );
    expect(existsSync(join(dir, "outside", "x.txt"))).toBe(false);
  });

  it("never follows a link as the file itself, dangling or not", async () => {
    await writeFile(join(dir, "victim.txt"), "keep");
    await symlink(join(dir, "victim.txt"), join(project(), "l1"));
    await symlink(join(dir, "made.txt"), join(project(), "l2"));
    await expect(writeNoFollow(join(project(), "l1"), "x")).rejects.toThrow(NotFollowedError);
    await expect(writeNoFollow(join(project(), "l2"), "x")).rejects.toThrow(NotFollowedError);
    expect(await readFile(join(dir, "victim.txt"), "utf8")).toBe("keep");
    expect(existsSync(join(dir, "made.txt"))).toBe(false);
  });
});

describe("Write and Edit write where the path was judged to land", () => {
  it("Write refuses when a link now leads elsewhere than the judged landing", async () => {
    await mkdir(join(dir, "outside"));
    await symlink(join(dir, "outside"), join(project(), "src", "link"));
    const judged = join(project(), "src", "link", "x.txt");
    const context = { ...contextFor(project()), landing: judged };
    const result = expectError(
      await call(writeTool(), { file_path: "src/link/x.txt", content: "x" }, context),
    );
    expect(result.error).toContain("nothing was done");
    expect(existsSync(join(dir, "outside", "x.txt"))).toBe(false);
  });

  it("Write through a link inside the project writes the link's target, shown as given", async () => {
    await mkdir(join(project(), "real"));
    await symlink("real", join(project(), "alias"));
    const result = expectOk(
      await call(writeTool(), { file_path: "alias/x.txt", content: "x" }, contextFor(project())),
    );
    expect(result.output).toContain(join(project(), "alias", "x.txt"));
    expect(await readFile(join(project(), "real", "x.txt"), "utf8")).toBe("x");
  });

  it("Edit reads and writes the landing; a judged landing that moved is refused", async () => {
    await writeFile(join(project(), "src", "f.txt"), "one two");
    await symlink("f.txt", join(project(), "src", "g.txt"));
    expectOk(
      await call(
        editTool(),
        { file_path: "src/g.txt", old_string: "one", new_string: "ONE" },
        { ...contextFor(project()), landing: join(project(), "src", "f.txt") },
      ),
    );
    expect(await readFile(join(project(), "src", "f.txt"), "utf8")).toBe("ONE two");
    const moved = expectError(
      await call(
        editTool(),
        { file_path: "src/g.txt", old_string: "two", new_string: "TWO" },
        { ...contextFor(project()), landing: join(project(), "src", "other.txt") },
      ),
    );
    expect(moved.error).toContain("nothing was done");
    expect(await readFile(join(project(), "src", "f.txt"), "utf8")).toBe("ONE two");
  });
});

describe("Read reads where the path was judged to land", () => {
  it("reads through a link as judged, and refuses when the link now leads elsewhere", async () => {
    await writeFile(join(project(), "src", "plain.txt"), "PLAIN\n");
    await writeFile(join(dir, "secret.txt"), "SECRET\n");
    await symlink("plain.txt", join(project(), "src", "alias.txt"));
    const judged = join(project(), "src", "plain.txt");
    const ok = expectOk(
      await call(
        readTool(),
        { file_path: "src/alias.txt" },
        { ...contextFor(project()), landing: judged },
      ),
    );
    expect(ok.output).toContain("PLAIN");
    // Judged when src/alias.txt led to plain.txt; it now leads to a file outside.
    await symlink(join(dir, "secret.txt"), join(project(), "src", "swapped.txt"));
    const refused = expectError(
      await call(
        readTool(),
        { file_path: "src/swapped.txt" },
        { ...contextFor(project()), landing: join(project(), "src", "swapped.txt") },
      ),
    );
    expect(refused.error).toContain("nothing was done");
    expect(refused.error).not.toContain("SECRET\n");
  });
});
