/**
 * Writes judged where the file system puts them, through `acai -p` (issue 18,
 * "Path rules leak and escape"): with `Edit(src/**)` allowed, a write through
 * `src/link -> ../outside` (a folder not yet created) or a dangling link is
 * not allowed and creates nothing; under acceptEdits a repository's
 * `docs/cfg -> ACAI_HOME/hooks` does not get a HOOK.md written into ACAI_HOME.
 * A plain write under src/ goes through, so the rule itself works.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, symlink } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-paths-links-");
  await mkdir(path.join(dirs.cwd, "src"));
  await mkdir(path.join(dirs.cwd, "docs"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const write = (file_path: string) => ({
  toolCalls: [{ name: "Write", input: { file_path, content: "PAYLOAD" } }],
});

/** One Write per step, then a final answer; the tool results the model got, in order. */
async function writes(files: string[], flags: string[]): Promise<string[]> {
  server = await startFakeOpenAI([...files.map(write), { text: "done" }]);
  const result = await runAcai({
    args: ["-p", "write them", ...flags, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  return files.map((_, i) => toolResultsSent(server?.requests[i + 1]?.body).at(-1) ?? "");
}

describe("writes through links are judged where they land", () => {
  it("Edit(src/**): a link to a folder not yet created and a dangling link are refused", async () => {
    const outside = path.join(dirs.root, "outside");
    const target = path.join(dirs.root, "target.txt");
    await symlink("../../outside", path.join(dirs.cwd, "src", "link"));
    await symlink(target, path.join(dirs.cwd, "src", "dangle"));
    const results = await writes(
      ["src/link/new/x.txt", "src/dangle", "src/ok.txt"],
      ["--allowedTools", "Edit(src/**)"],
    );
    expect(results[0]).toContain("Permission denied");
    expect(results[1]).toContain("Permission denied");
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(target)).toBe(false);
    expect(results[2]).toContain("Created");
    expect(await readFile(path.join(dirs.cwd, "src", "ok.txt"), "utf8")).toBe("PAYLOAD");
  });

  it("acceptEdits: a folder link into ACAI_HOME does not get a hook written there", async () => {
    const hooks = path.join(dirs.acaiHome, "hooks");
    await mkdir(hooks, { recursive: true });
    await symlink(hooks, path.join(dirs.cwd, "docs", "cfg"));
    const results = await writes(
      ["docs/cfg/evil/HOOK.md", "docs/notes.md"],
      ["--permission-mode", "acceptEdits"],
    );
    expect(results[0]).toContain("Permission denied");
    expect(existsSync(path.join(hooks, "evil"))).toBe(false);
    expect(results[1]).toContain("Created");
  });
});
