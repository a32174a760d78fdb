import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadAgentFiles, MAX_AGENT_FILES } from "../../source/subagents/files.js";
import { loadSubagentTypes } from "../../source/subagents/session.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "acai-agents-"));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function agentFile(dir: string, name: string, text: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe("agent files", () => {
  it("reads Claude Code's front matter; the body is the system prompt", async () => {
    const dir = path.join(root, "agents");
    const file = await agentFile(
      dir,
      "reviewer.md",
      "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\nmodel: inherit\n---\nYou review code.\n",
    );
    const loaded = await loadAgentFiles([{ dir, scope: "project" }]);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.definitions).toEqual([
      {
        name: "reviewer",
        description: "Reviews code",
        tools: ["Read", "Grep"],
        prompt: "You review code.",
        scope: "project",
        file,
      },
    ]);
  });

  it("a broken file is left out with a warning naming it and why", async () => {
    const dir = path.join(root, "agents");
    const nameless = await agentFile(dir, "a.md", "---\ndescription: x\n---\nbody\n");
    const bare = await agentFile(dir, "b.md", "no front matter\n");
    const deep = await agentFile(
      dir,
      "c.md",
      `---\nname: c\ndescription: ${"[".repeat(200)}\n---\n`,
    );
    await symlink("/dev/zero", path.join(dir, "d.md"));
    const loaded = await loadAgentFiles([{ dir, scope: "project" }]);
    expect(loaded.definitions).toEqual([]);
    expect(loaded.warnings).toHaveLength(4);
    expect(loaded.warnings[0]).toContain(nameless);
    expect(loaded.warnings[0]).toContain("name");
    expect(loaded.warnings[1]).toContain(bare);
    expect(loaded.warnings[1]).toContain("has no YAML frontmatter");
    expect(loaded.warnings[2]).toContain(deep);
    expect(loaded.warnings[2]).toContain("nests more than");
    expect(loaded.warnings[3]).toContain("not a regular file");
  });

  it("reads at most MAX_AGENT_FILES files of a folder and says so", async () => {
    const dir = path.join(root, "agents");
    for (let i = 0; i <= MAX_AGENT_FILES; i++) {
      const name = `a${String(i).padStart(3, "0")}`;
      await agentFile(dir, `${name}.md`, `---\nname: ${name}\ndescription: d\n---\n`);
    }
    const loaded = await loadAgentFiles([{ dir, scope: "user" }]);
    expect(loaded.definitions).toHaveLength(MAX_AGENT_FILES);
    expect(loaded.warnings[0]).toContain(`more than ${MAX_AGENT_FILES}`);
  });

  it("session types: general-purpose first; the project's replace the user's, only when included", async () => {
    const acaiHome = path.join(root, "home");
    const projectDir = path.join(root, "project");
    await agentFile(
      path.join(acaiHome, "agents"),
      "r.md",
      "---\nname: r\ndescription: user's\n---\n",
    );
    await agentFile(
      path.join(projectDir, ".acai", "agents"),
      "r.md",
      "---\nname: r\ndescription: project's\n---\n",
    );
    const without = await loadSubagentTypes({ acaiHome, projectDir, includeProject: false });
    expect(without.definitions.map((d) => [d.name, d.description.slice(0, 15)])).toEqual([
      ["general-purpose", "General-purpose"],
      ["r", "user's"],
    ]);
    const trusted = await loadSubagentTypes({ acaiHome, projectDir, includeProject: true });
    expect(trusted.definitions.map((d) => d.description)).toContain("project's");
    expect(trusted.definitions.map((d) => d.description)).not.toContain("user's");
  });
});
