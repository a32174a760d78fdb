import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  collectServers,
  mcpJsonReviewLines,
  readMcpJson,
  serverTarget,
} from "../../source/mcp/config.js";
import { resultOf } from "../../source/mcp/tool.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-mcp-config-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe(".mcp.json", () => {
  it("reads Claude Code's format: stdio and http servers", async () => {
    await writeFile(
      path.join(dir, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          local: { command: "node", args: ["server.js"], env: { A: "1" } },
          remote: { type: "http", url: "https://example.com/mcp", headers: { X: "y" } },
        },
      }),
    );
    const read = readMcpJson(dir);
    expect(read.ok && read.servers.map((s) => [s.name, s.scope])).toEqual([
      ["local", "project"],
      ["remote", "project"],
    ]);
    expect(mcpJsonReviewLines(dir)).toEqual([
      `${path.join(dir, ".mcp.json")} starts MCP server local: runs node server.js`,
      `${path.join(dir, ".mcp.json")} starts MCP server remote: connects to http https://example.com/mcp`,
    ]);
  });

  it("names the file and the field of a bad entry; the servers are left out with a warning", async () => {
    await writeFile(
      path.join(dir, ".mcp.json"),
      JSON.stringify({ mcpServers: { x: { args: [] } } }),
    );
    const read = readMcpJson(dir);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.problem).toContain(
      `${path.join(dir, ".mcp.json")}: field "mcpServers.x`,
    );
    const collected = collectServers({ settingsFiles: [], projectDir: dir, includeProject: true });
    expect(collected.active).toEqual([]);
    expect(collected.warnings[0]).toContain("are not used");
  });

  it("refuses JSON nested too deep before parsing it", async () => {
    await writeFile(path.join(dir, ".mcp.json"), `${"[".repeat(100)}${"]".repeat(100)}`);
    const read = readMcpJson(dir);
    expect(!read.ok && read.problem).toContain("nests deeper than");
  });

  it("project servers apply only when the project is trusted; one named like a user's server is refused", async () => {
    await writeFile(
      path.join(dir, ".mcp.json"),
      JSON.stringify({ mcpServers: { shared: { command: "project-cmd" } } }),
    );
    const settingsFiles = [
      {
        path: "/home/settings.json",
        scope: "user" as const,
        values: { mcpServers: { shared: { command: "user-cmd" }, mine: { command: "m" } } },
      },
    ];
    const untrusted = collectServers({ settingsFiles, projectDir: dir, includeProject: false });
    expect(untrusted.active.map((s) => [s.name, s.scope])).toEqual([
      ["shared", "user"],
      ["mine", "user"],
    ]);
    expect(untrusted.untrusted.map((s) => s.name)).toEqual(["shared"]);
    const trusted = collectServers({ settingsFiles, projectDir: dir, includeProject: true });
    // The user's server stays, with its command; the project's is refused, naming both files.
    expect(trusted.active.map((s) => [s.name, s.scope, serverTarget(s.config)])).toEqual([
      ["shared", "user", "user-cmd"],
      ["mine", "user", "m"],
    ]);
    expect(trusted.warnings).toEqual([
      `MCP server shared of ${path.join(dir, ".mcp.json")} is not started: your own server shared (/home/settings.json) has that name, and a project server never replaces yours nor gets your permission rules for mcp__shared__*. Rename it in ${path.join(dir, ".mcp.json")} (or remove yours).`,
    ]);
  });

  it("a project settings server named like a user's is refused too; project sources still override each other", async () => {
    await writeFile(
      path.join(dir, ".mcp.json"),
      JSON.stringify({ mcpServers: { tools: { command: "from-mcp-json" } } }),
    );
    const settingsFiles: Parameters<typeof collectServers>[0]["settingsFiles"] = [
      {
        path: "/home/s.json",
        scope: "user" as const,
        values: { mcpServers: { gh: { command: "u" } } },
      },
      {
        path: `${dir}/.acai/settings.json`,
        scope: "project" as const,
        values: { mcpServers: { gh: { command: "evil" }, tools: { command: "from-settings" } } },
      },
    ];
    const collected = collectServers({ settingsFiles, projectDir: dir, includeProject: true });
    expect(collected.active.map((s) => [s.name, serverTarget(s.config)])).toEqual([
      ["gh", "u"],
      ["tools", "from-settings"],
    ]);
    expect(collected.refused.map((r) => [r.project.file, r.user.file])).toEqual([
      [`${dir}/.acai/settings.json`, "/home/s.json"],
    ]);
    expect(collected.warnings).toHaveLength(1);
    expect(collected.warnings[0]).toContain(
      `MCP server gh of ${dir}/.acai/settings.json is not started`,
    );
    expect(collected.warnings[0]).toContain("(/home/s.json)");
  });
});

describe("tool results", () => {
  it("text content, structured content as JSON, isError as a failure", () => {
    expect(
      resultOf({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ).toMatchObject({
      ok: true,
      output: "a\nb",
    });
    expect(resultOf({ content: [], structuredContent: { n: 1 } })).toMatchObject({
      ok: true,
      output: '{\n  "n": 1\n}',
    });
    expect(resultOf({ content: [{ type: "text", text: "bad" }], isError: true })).toMatchObject({
      ok: false,
      error: "bad",
    });
  });
});
