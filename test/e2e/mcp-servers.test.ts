/**
 * MCP servers end to end: a small stdio server (test/support/mcp-test-server.mjs)
 * configured in the user's settings or the project's `.mcp.json`; its tools
 * reach the model as `mcp__test__<tool>`, a `before_tool` hook with matcher
 * `mcp__test__.*` blocks them, `acai mcp list` shows servers, state, tools and
 * resources, a server that fails to start is reported and the session goes on.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Markers, markedSleep, pidsWith, survivors } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";
import { modelArgs, toolResultsSent } from "./helpers.js";

const SERVER = path.join(REPO_ROOT, "test", "support", "mcp-test-server.mjs");

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
const markers = new Markers();
afterEach(async () => {
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

function testServer(log: string) {
  return {
    command: process.execPath,
    args: [SERVER],
    env: { MCP_TEST_LOG: log, MCP_TEST_MARK: "from-entry" },
  };
}

async function userSettings(d: AcaiDirs, settings: object): Promise<void> {
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
}

/** What the model was told in the tool results of request `index` (error texts unwrapped). */
function toldModel(srv: FakeOpenAIServer, index: number): string[] {
  return toolResultsSent(srv.requests[index]?.body).map((text) => {
    try {
      const parsed = JSON.parse(text) as { error?: unknown };
      return typeof parsed.error === "string" ? parsed.error : text;
    } catch {
      return text;
    }
  });
}

describe("MCP servers", () => {
  it("the model calls a stdio server's tools as mcp__test__<tool>; secrets are scrubbed, the entry's env given", async () => {
    const d = await makeAcaiDirs("acai-mcp-");
    dirs = d;
    const log = path.join(d.root, "calls.jsonl");
    await userSettings(d, { mcpServers: { test: testServer(log) } });
    const srv = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "mcp__test__echo", input: { text: "hello" } },
          { name: "mcp__test__add", input: { a: 2, b: 3 } },
          { name: "mcp__test__env", input: {} },
        ],
      },
      { text: "done" },
    ]);
    server = srv;
    // A server's tools allowed by one rule (Claude Code's syntax): nobody is asked.
    const result = await runAcai({
      args: ["-p", "go", "--allowedTools", "mcp__test__*", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("permission denied");
    const offered = ((srv.requests[0]?.body?.tools ?? []) as { function: { name: string } }[]).map(
      (tool) => tool.function.name,
    );
    expect(offered).toEqual(
      expect.arrayContaining(["mcp__test__echo", "mcp__test__add", "mcp__test__env"]),
    );
    const told = toldModel(srv, 1);
    expect(told[0]).toBe("echo: hello");
    expect(JSON.parse(told[1] ?? "")).toEqual({ sum: 5 });
    expect(told[2]).toBe("mark=from-entry key=absent");
    expect((await readFile(log, "utf8")).trim().split("\n")).toHaveLength(3);
  });

  it("expands ${VAR} and ${VAR:-default} in an entry as Claude Code does; an unset one fails that server by name", async () => {
    const d = await makeAcaiDirs("acai-mcp-vars-");
    dirs = d;
    const log = path.join(d.root, "calls.jsonl");
    const entry = testServer(log);
    await userSettings(d, {
      mcpServers: {
        test: {
          ...entry,
          env: {
            MCP_TEST_LOG: "${ACAI_T_DIR}/calls.jsonl",
            MCP_TEST_MARK: "${ACAI_T_MARK:-fallback}-${ACAI_T_SUFFIX}",
          },
        },
        unset: { ...entry, env: { MCP_TEST_MARK: "${ACAI_T_NEVER_SET}" } },
      },
    });
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "mcp__test__env", input: {} }] },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--allowedTools", "mcp__test__*", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
      env: { ACAI_T_DIR: d.root, ACAI_T_SUFFIX: "x" },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(toldModel(srv, 1)).toEqual(["mark=fallback-x key=absent"]);
    expect(existsSync(log)).toBe(true);
    expect(result.stderr).toContain(
      "MCP server unset (" +
        path.join(d.acaiHome, "settings.json") +
        ") is not available: its entry uses ${ACAI_T_NEVER_SET}, which is not set in your environment",
    );
  });

  it("a before_tool hook with matcher mcp__test__.* blocks the call before it reaches the server", async () => {
    const d = await makeAcaiDirs("acai-mcp-hook-");
    dirs = d;
    const log = path.join(d.root, "calls.jsonl");
    const guard = path.join(d.root, "guard.sh");
    await writeFile(guard, '#!/bin/sh\ncat >/dev/null\necho "no MCP here" >&2\nexit 2\n');
    await chmod(guard, 0o755);
    await userSettings(d, {
      mcpServers: { test: testServer(log) },
      hooks: {
        before_tool: [{ matcher: "mcp__test__.*", hooks: [{ type: "command", command: guard }] }],
      },
    });
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "mcp__test__echo", input: { text: "blocked?" } }] },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(toldModel(srv, 1).join("\n")).toContain("no MCP here");
    expect(existsSync(log)).toBe(false);
  });

  it("a server that fails to start is reported and the session goes on", async () => {
    const d = await makeAcaiDirs("acai-mcp-broken-");
    dirs = d;
    await userSettings(d, {
      mcpServers: {
        missing: { command: path.join(d.root, "no-such-server") },
        notonpath: { command: "acai-no-such-mcp-server" },
        quits: {
          command: process.execPath,
          args: ["-e", "console.error('boot failed: config.yaml line 3'); process.exit(3)"],
        },
        silent: { command: process.execPath, args: ["-e", "process.exit(3)"] },
        test: testServer(path.join(d.root, "calls.jsonl")),
      },
    });
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "mcp__test__echo", input: { text: "still here" } }] },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      `MCP server missing (${path.join(d.acaiHome, "settings.json")}) is not available: its command ${path.join(d.root, "no-such-server")} was not found (no executable file at`,
    );
    expect(result.stderr).toContain(
      "its command acai-no-such-mcp-server was not found (not on PATH)",
    );
    expect(result.stderr).not.toContain("ENOENT");
    expect(result.stderr).toMatch(
      /MCP server quits .*it exited before it answered; its last words on stderr:\n {4}boot failed: config\.yaml line 3/,
    );
    expect(result.stderr).toContain("it exited before it answered, and wrote nothing on stderr");
    expect(result.stdout).toContain("done");
    expect(toldModel(srv, 1)).toEqual(["echo: still here"]);
  });

  it("acai mcp list shows servers, state, tools and resources (text and --json)", async () => {
    const d = await makeAcaiDirs("acai-mcp-list-");
    dirs = d;
    await userSettings(d, {
      mcpServers: {
        test: testServer(path.join(d.root, "calls.jsonl")),
        missing: { command: path.join(d.root, "no-such-server") },
      },
    });
    const text = await runAcai({ args: ["mcp", "list"], dirs: d });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/test {2}\(user\) {2}connected/);
    expect(text.stdout).toContain("mcp__test__echo  Echoes the text back");
    expect(text.stdout).toContain("resource: test://readme  readme");
    expect(text.stdout).toMatch(/missing {2}\(user\) {2}failed/);
    const json = await runAcai({ args: ["mcp", "list", "--json"], dirs: d });
    expect(json.exitCode, json.stderr).toBe(0);
    const listing = JSON.parse(json.stdout) as {
      servers: { name: string; state: string; tools: unknown[] }[];
    };
    expect(listing.servers.map((s) => [s.name, s.state, s.tools.length])).toEqual([
      ["test", "connected", 4],
      ["missing", "failed", 0],
    ]);
  });

  it("a project's .mcp.json is part of the trust set: reviewed, listed unstarted, used once trusted", async () => {
    const d = await makeAcaiDirs("acai-mcp-project-");
    dirs = d;
    const log = path.join(d.root, "calls.jsonl");
    await mkdir(path.join(d.cwd, ".git"));
    await writeFile(
      path.join(d.cwd, ".mcp.json"),
      JSON.stringify({ mcpServers: { test: testServer(log) } }),
    );
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "mcp__test__echo", input: { text: "project" } }] },
      { text: "done" },
    ]);
    server = srv;
    const refused = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain(
      `.mcp.json starts MCP server test: runs ${process.execPath} ${SERVER}`,
    );
    const listed = await runAcai({ args: ["mcp", "list"], dirs: d });
    expect(listed.stdout).toMatch(/test {2}\(project\) {2}not-started/);
    expect(existsSync(log)).toBe(false);

    const trust = await runAcai({ args: ["hooks", "trust"], dirs: d });
    expect(trust.exitCode, trust.stderr + trust.stdout).toBe(0);
    const run = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(toldModel(srv, 1)).toEqual(["echo: project"]);

    // An edit revokes trust: the file is hashed whole.
    await writeFile(
      path.join(d.cwd, ".mcp.json"),
      JSON.stringify({ mcpServers: { test: { command: "true" } } }),
    );
    const again = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(again.exitCode).toBe(4);
    expect(again.stderr).toContain(".mcp.json");
  });

  it("leaves nothing running after acai -p: neither the server nor a child it started with setsid", async () => {
    const d = await makeAcaiDirs("acai-mcp-");
    dirs = d;
    const marker = markers.next("acai-mcp-server");
    // The server starts a child that leaves its process group, then becomes the MCP server;
    // `--` and the marker in its argv let the test count the server itself too.
    const entry = {
      command: "/bin/sh",
      args: [
        "-c",
        `setsid bash -c 'touch "$1"; ${markedSleep(`${marker}-child`)}' sh "${path.join(d.root, "child-started")}" </dev/null >/dev/null 2>&1 & exec "$0" "$@"`,
        process.execPath,
        SERVER,
        `--${marker}-server`,
      ],
      env: { MCP_TEST_LOG: path.join(d.root, "calls.jsonl") },
    };
    await userSettings(d, { mcpServers: { test: entry } });
    const srv = await startFakeOpenAI([
      { toolCalls: [{ name: "mcp__test__echo", input: { text: "hi" } }] },
      { text: "done" },
    ]);
    server = srv;
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...modelArgs("chat", srv)],
      dirs: d,
      baseUrl: srv.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(toldModel(srv, 1).join("\n")).toContain("hi");
    expect(existsSync(path.join(d.root, "child-started"))).toBe(true);
    expect(await survivors(marker)).toEqual([]);
    expect(pidsWith(`${marker}-server`)).toEqual([]);
  });
});
