/**
 * docs/quickstart.md's two hooks, exactly as printed there, installed where the
 * page says (ACAI_HOME/hooks) and driven through `acai -p` with the replay
 * model: the bash hook blocks `rm -rf`, the Python hook blocks a write to
 * package-lock.json, and a harmless command still runs.
 */

import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

/** The files the quickstart tells the reader to save, by name. */
async function quickstartFiles(): Promise<Map<string, string>> {
  const page = await readFile(path.join(REPO_ROOT, "docs", "quickstart.md"), "utf8");
  const files = new Map<string, string>();
  for (const match of page.matchAll(/<!-- quickstart-file: (\S+) -->\n```\w+\n([\s\S]*?)```/g)) {
    files.set(match[1] as string, match[2] as string);
  }
  return files;
}

const script = {
  turns: [
    { tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
    { tool_calls: [{ name: "Write", input: { file_path: "package-lock.json", content: "{}" } }] },
    { tool_calls: [{ name: "Bash", input: { command: "touch made-it" } }] },
    { text: "done" },
  ],
};

describe("docs/quickstart.md", () => {
  it("prints a bash hook and a Python hook", async () => {
    expect([...(await quickstartFiles()).keys()]).toEqual(["no-rm-rf.sh", "no-lockfile-edits.py"]);
  });

  it("its hooks block what the page says they block, and nothing else", async () => {
    dirs = await makeAcaiDirs("acai-quickstart-");
    const hooks = path.join(dirs.acaiHome, "hooks");
    await mkdir(hooks);
    for (const [name, text] of await quickstartFiles()) {
      await writeFile(path.join(hooks, name), text);
      await chmod(path.join(hooks, name), 0o755);
    }
    await mkdir(path.join(dirs.cwd, "build"));
    await writeFile(path.join(dirs.cwd, "replay.json"), JSON.stringify(script));
    const result = await runAcai({
      dirs,
      args: [
        "-p",
        "tidy up",
        "--model",
        "replay:replay.json",
        "--yes",
        "--verbose",
        "--output-format",
        "text",
      ],
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      "hook no-rm-rf blocked before_tool: rm -rf is not allowed here",
    );
    expect(result.stderr).toContain(
      "hook no-lockfile-edits blocked before_tool: package-lock.json is written by npm",
    );
    expect(existsSync(path.join(dirs.cwd, "build"))).toBe(true);
    expect(existsSync(path.join(dirs.cwd, "package-lock.json"))).toBe(false);
    expect(existsSync(path.join(dirs.cwd, "made-it"))).toBe(true);
  });
});
