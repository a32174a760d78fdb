import { mkdir } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { findProjectRoot } from "../../source/project/root.js";
import { tempFolder } from "./support.js";

const tmp = tempFolder();

describe("findProjectRoot", () => {
  it("takes the nearest folder with .acai/ above the working directory", async () => {
    await mkdir(path.join(tmp.dir(), "repo", ".acai"), { recursive: true });
    await mkdir(path.join(tmp.dir(), "repo", "src", "deep"), { recursive: true });
    const root = findProjectRoot({
      cwd: path.join(tmp.dir(), "repo", "src", "deep"),
      acaiHome: path.join(tmp.dir(), "home", ".acai"),
    });
    expect(root).toEqual({ dir: path.join(tmp.dir(), "repo"), reason: "acai-folder" });
  });

  it("else the git work-tree top, and never a .acai above the repository", async () => {
    await mkdir(path.join(tmp.dir(), ".acai"), { recursive: true });
    await mkdir(path.join(tmp.dir(), "repo", ".git"), { recursive: true });
    await mkdir(path.join(tmp.dir(), "repo", "pkg"), { recursive: true });
    const root = findProjectRoot({
      cwd: path.join(tmp.dir(), "repo", "pkg"),
      acaiHome: path.join(tmp.dir(), "elsewhere"),
    });
    expect(root).toEqual({ dir: path.join(tmp.dir(), "repo"), reason: "git-work-tree" });
  });

  it("else the working directory; the user's own ACAI_HOME is not a project marker", async () => {
    const home = path.join(tmp.dir(), "home");
    await mkdir(path.join(home, ".acai"), { recursive: true });
    await mkdir(path.join(home, "notes"), { recursive: true });
    const root = findProjectRoot({
      cwd: path.join(home, "notes"),
      acaiHome: path.join(home, ".acai"),
    });
    expect(root).toEqual({ dir: path.join(home, "notes"), reason: "working-directory" });
  });
});
