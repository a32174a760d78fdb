/**
 * Read rules hold for every file a tool visits, through `acai -p` (issue 18,
 * "Path rules leak and escape"): with `Read(./.env)` denied, neither Grep
 * over the project nor Grep with `glob: ".env"` returns the secret line, Glob
 * does not list the file, and Read through a link to it is denied. The same
 * searches without the rule find it, so the secret is really there.
 */
import { link, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

const SECRET = "API_KEY=sk-live-SECRET-42";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-read-rules-");
  await writeFile(path.join(dirs.cwd, ".env"), `${SECRET}\n`);
  await writeFile(path.join(dirs.cwd, "app.ts"), "export const x = 1;\n");
  await symlink(".env", path.join(dirs.cwd, "innocent.txt"));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

interface ToolCallSpec {
  name: string;
  input: Record<string, unknown>;
}

const calls: ToolCallSpec[] = [
  { name: "Grep", input: { pattern: "SECRET", path: ".", output_mode: "content" } },
  { name: "Grep", input: { pattern: "API_KEY", glob: ".env", output_mode: "content" } },
  { name: "Glob", input: { pattern: "**/*" } },
  { name: "Read", input: { file_path: "innocent.txt" } },
];

/** Runs each call in turn through `acai -p`; what the model got back for each. */
async function resultsOf(list: readonly ToolCallSpec[], flags: string[]): Promise<string[]> {
  server = await startFakeOpenAI([...list.map((c) => ({ toolCalls: [c] })), { text: "done" }]);
  const result = await runAcai({
    args: ["-p", "look around", ...flags, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.exitCode, result.stderr).toBe(0);
  return list.map((_, i) => toolResultsSent(server?.requests[i + 1]?.body).at(-1) ?? "");
}

const resultsWith = (flags: string[]) => resultsOf(calls, flags);

describe("Read(./.env) denied: no tool shows the secret", () => {
  it("Grep, Grep with glob, Glob and Read through a link keep it out", async () => {
    const [grep, grepGlob, glob, read] = await resultsWith(["--disallowedTools", "Read(./.env)"]);
    for (const text of [grep, grepGlob, glob, read]) expect(text).not.toContain("sk-live");
    expect(glob).toContain("app.ts");
    expect(glob).not.toContain(".env");
    expect(glob).not.toContain("innocent.txt");
    expect(read).toContain("Permission denied");
  });

  it("without the rule the same calls find it", async () => {
    const [grep, grepGlob, glob, read] = await resultsWith([]);
    expect(grep).toContain("sk-live");
    expect(grepGlob).toContain("sk-live");
    expect(glob).toContain(".env");
    expect(read).toContain("sk-live");
  });
});

describe("Read(./.env) denied: the neighbours (red team)", () => {
  const neighbours: ToolCallSpec[] = [
    { name: "Read", input: { file_path: "sub/../.env" } },
    { name: "Read", input: { file_path: "self/.env" } },
    { name: "Read", input: { file_path: "/proc/self/cwd/.env" } },
    { name: "Glob", input: { pattern: "**/.e*" } },
    { name: "Glob", input: { pattern: "self/.e*" } },
    { name: "Grep", input: { pattern: "sk-live", path: "self", output_mode: "content" } },
    { name: "Grep", input: { pattern: "sk-live", path: "/proc/self/cwd", output_mode: "content" } },
  ];

  it("a path through .., a link to the project, /proc/self/cwd and dot-globs keep it out", async () => {
    await symlink(".", path.join(dirs.cwd, "self"));
    await mkdir(path.join(dirs.cwd, "sub"));
    const results = await resultsOf(neighbours, ["--disallowedTools", "Read(./.env)"]);
    neighbours.forEach((call, i) => {
      expect(results[i], JSON.stringify(call)).not.toContain("sk-live");
    });
    for (const i of [0, 1, 2]) expect(results[i]).toContain("Permission denied");
    expect(results[3]).not.toContain(".env");
  });
});

describe("Read(./.env) denied: a hard link to it", () => {
  const viaLink: ToolCallSpec[] = [
    { name: "Read", input: { file_path: "notes.txt" } },
    { name: "Grep", input: { pattern: "sk-live", path: ".", output_mode: "content" } },
    { name: "Grep", input: { pattern: "sk-live", path: "notes.txt", output_mode: "content" } },
  ];

  it("is the same file: Read and Grep of the other name keep the secret out", async () => {
    // A hard link is another name of the same file (a tarball can ship one, Bash can make one).
    await link(path.join(dirs.cwd, ".env"), path.join(dirs.cwd, "notes.txt"));
    const results = await resultsOf(viaLink, ["--disallowedTools", "Read(./.env)"]);
    viaLink.forEach((call, i) => {
      expect(results[i], JSON.stringify(call)).not.toContain("sk-live");
    });
    expect(results[0]).toContain("Permission denied");
  });
});
