/**
 * `acai mcp add` / `acai mcp remove` as a Claude Code user types them: the
 * entry lands in the file of its scope (local, project, user), keeps the
 * file's other fields, is what a session then starts, and bad input is an
 * error naming the flag or file with nothing written.
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";
import { STACK_TRACE } from "./helpers.js";

const SERVER = path.join(REPO_ROOT, "test", "support", "mcp-test-server.mjs");

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

async function json(file: string): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
}

describe("acai mcp add / remove", () => {
  it("writes each scope's file, keeps its other fields, and a session then uses the server", async () => {
    const d = await makeAcaiDirs("acai-mcp-add-");
    dirs = d;
    await mkdir(path.join(d.cwd, ".git"));
    await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify({ maxSteps: 7 }));
    const user = await runAcai({
      args: [
        "mcp",
        "add",
        "-s",
        "user",
        "-e",
        "MCP_TEST_MARK=added",
        "test",
        "--",
        process.execPath,
        SERVER,
      ],
      dirs: d,
    });
    expect(user.exitCode, user.stderr).toBe(0);
    expect(await json(path.join(d.acaiHome, "settings.json"))).toEqual({
      maxSteps: 7,
      mcpServers: {
        test: { command: process.execPath, args: [SERVER], env: { MCP_TEST_MARK: "added" } },
      },
    });
    const listed = await runAcai({ args: ["mcp", "list", "--json"], dirs: d });
    const servers = (JSON.parse(listed.stdout) as { servers: { name: string; state: string }[] })
      .servers;
    expect(servers).toEqual([expect.objectContaining({ name: "test", state: "connected" })]);

    const project = await runAcai({
      args: [
        "mcp",
        "add",
        "--transport",
        "http",
        "--scope",
        "project",
        "-H",
        "Authorization: Bearer ${TOKEN}",
        "docs",
        "https://example.com/mcp",
      ],
      dirs: d,
    });
    expect(project.exitCode, project.stderr).toBe(0);
    expect(project.stdout).toContain("acai asks you to trust it again");
    expect(await json(path.join(d.cwd, ".mcp.json"))).toEqual({
      mcpServers: {
        docs: {
          type: "http",
          url: "https://example.com/mcp",
          headers: { Authorization: "Bearer ${TOKEN}" },
        },
      },
    });

    const local = await runAcai({
      args: ["mcp", "add", "tool", "--", "uvx", "some-server", "--flag"],
      dirs: d,
    });
    expect(local.exitCode, local.stderr).toBe(0);
    const localFile = path.join(d.cwd, ".acai", "settings.local.json");
    expect(await json(localFile)).toEqual({
      mcpServers: { tool: { command: "uvx", args: ["some-server", "--flag"] } },
    });

    const removed = await runAcai({ args: ["mcp", "remove", "tool"], dirs: d });
    expect(removed.exitCode, removed.stderr).toBe(0);
    expect(await json(localFile)).toEqual({ mcpServers: {} });
  });

  it("refuses bad input with a message naming the flag or file, and writes nothing", async () => {
    const d = await makeAcaiDirs("acai-mcp-add-bad-");
    dirs = d;
    await mkdir(path.join(d.cwd, ".git"));
    const cases: [string[], string][] = [
      [["mcp", "add", "bad name", "--", "x"], "server name bad name: use letters, digits, _ and -"],
      [
        ["mcp", "add", "-t", "ftp", "x", "y"],
        "--transport must be one of stdio, http, sse (got ftp)",
      ],
      [
        ["mcp", "add", "-s", "global", "x", "--", "y"],
        "--scope must be one of local, project, user (got global)",
      ],
      [["mcp", "add", "x"], "acai mcp add needs a command: acai mcp add NAME -- COMMAND"],
      [["mcp", "add", "-e", "NOEQUALS", "x", "--", "y"], "--env NOEQUALS: write it as KEY=value"],
      [["mcp", "add", "-t", "http", "x", "not a url"], "the server entry is invalid"],
      [["mcp", "remove", "ghost"], "has no MCP server ghost"],
    ];
    for (const [args, message] of cases) {
      const result = await runAcai({ args, dirs: d });
      expect(result.exitCode, args.join(" ")).toBe(2);
      expect(result.stderr).toContain(message);
      expect(result.stderr).not.toMatch(STACK_TRACE);
    }
    expect(existsSync(path.join(d.cwd, ".acai"))).toBe(false);
    expect(existsSync(path.join(d.cwd, ".mcp.json"))).toBe(false);
    await writeFile(path.join(d.cwd, ".mcp.json"), "{ not json");
    const broken = await runAcai({
      args: ["mcp", "add", "-s", "project", "x", "--", "y"],
      dirs: d,
    });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toContain(`${path.join(d.cwd, ".mcp.json")} is not valid JSON`);
    expect(await readFile(path.join(d.cwd, ".mcp.json"), "utf8")).toBe("{ not json");
  });
});
