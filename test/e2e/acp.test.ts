/**
 * `acai acp` driven by the ACP SDK's own client side (docs/acp.md): a
 * session whose tool call a hook blocks and whose next one the editor
 * approves; the trust rule (an untrusted project is refused with its review);
 * cancellation of a running turn, with no process of it left; MCP servers the
 * editor sends; `session/load` replaying an earlier session.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { Markers, markedSleep, pidsWith, survivors, waitFor } from "../process/survivors.js";
import { type AcaiDirs, CLI_PATH, childEnv, makeAcaiDirs, REPO_ROOT } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
let child: ChildProcessWithoutNullStreams | undefined;
const markers = new Markers();
afterEach(async () => {
  markers.killAll();
  if (child && child.exitCode === null) {
    child.kill("SIGKILL");
    await new Promise((resolve) => child?.once("close", resolve));
  }
  child = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** Notifications are handled after the response that follows them has settled: wait for one briefly. */
async function eventually<T>(find: () => T | undefined): Promise<T | undefined> {
  for (let i = 0; i < 100; i++) {
    const found = find();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

interface Seen {
  updates: acp.SessionUpdate[];
  permissions: acp.RequestPermissionRequest[];
}

/** Starts `acai acp` with a replay model and the user's settings; returns a connected client. */
async function startAgent(d: AcaiDirs, answer: "allow_once" | "reject_once") {
  const proc = spawn(process.execPath, [CLI_PATH, "acp"], {
    cwd: d.cwd,
    env: childEnv({ args: [], dirs: d }),
    stdio: ["pipe", "pipe", "pipe"],
  });
  child = proc;
  let stderr = "";
  proc.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const seen: Seen = { updates: [], permissions: [] };
  const app = acp
    .client({ name: "test-editor" })
    .onNotification(acp.methods.client.session.update, ({ params }) => {
      seen.updates.push(params.update);
    })
    .onRequest(acp.methods.client.session.requestPermission, ({ params }) => {
      seen.permissions.push(params);
      return { outcome: { outcome: "selected", optionId: answer } };
    });
  const stream = acp.ndJsonStream(
    Writable.toWeb(proc.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(proc.stdout) as ReadableStream<Uint8Array>,
  );
  return { app, stream, seen, stderr: () => stderr, proc };
}

async function userSettings(d: AcaiDirs, turns: unknown[], extra: object = {}): Promise<void> {
  const replay = path.join(d.acaiHome, "replay.json");
  await writeFile(replay, JSON.stringify({ turns }));
  const guard = path.join(d.acaiHome, "no-rm.sh");
  await writeFile(
    guard,
    '#!/bin/sh\nif grep -q "rm -rf"; then echo "rm is not allowed here" >&2; exit 2; fi\nexit 0\n',
  );
  await chmod(guard, 0o755);
  const settings = {
    model: `replay:${replay}`,
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: guard }] }] },
    ...extra,
  };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
}

describe("acai acp", () => {
  it("runs a session: a hook blocks one tool call, the editor approves the next", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    await userSettings(d, [
      {
        text: "Cleaning up first.",
        tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }],
      },
      { tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "from acp\n" } }] },
      { text: "All done." },
    ]);
    await mkdir(path.join(d.cwd, "build"));
    const { app, stream, seen, stderr } = await startAgent(d, "allow_once");
    const result = await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      expect(init.agentInfo?.name).toBe("acai");
      return ctx.buildSession(d.cwd).withSession((session) => session.prompt("tidy up"));
    });
    expect(result.stopReason, stderr()).toBe("end_turn");

    const calls = seen.updates.filter((u) => u.sessionUpdate === "tool_call");
    expect(calls.map((c) => c.title)).toEqual(["Bash: rm -rf build", "Write: notes.txt"]);
    const ends = seen.updates.filter((u) => u.sessionUpdate === "tool_call_update");
    expect(ends.map((u) => u.status)).toEqual(["failed", "completed"]);
    const blocked = ends[0]?.content?.[0];
    expect(JSON.stringify(blocked)).toContain("rm is not allowed here");
    expect(existsSync(path.join(d.cwd, "build"))).toBe(true);

    expect(seen.permissions).toHaveLength(1);
    expect(seen.permissions[0]?.toolCall.title).toBe("Write: notes.txt");
    expect(seen.permissions[0]?.toolCall.toolCallId).toBe(calls[1]?.toolCallId);
    expect(await readFile(path.join(d.cwd, "notes.txt"), "utf8")).toBe("from acp\n");

    const text = seen.updates
      .filter((u) => u.sessionUpdate === "agent_message_chunk")
      .map((u) => (u.content.type === "text" ? u.content.text : ""))
      .join("");
    expect(text).toContain("Cleaning up first.");
    expect(text).toContain("All done.");
  });

  it("a write the editor rejects does not happen", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    await userSettings(d, [
      { tool_calls: [{ name: "Write", input: { file_path: "notes.txt", content: "x" } }] },
      { text: "ok" },
    ]);
    const { app, stream, seen } = await startAgent(d, "reject_once");
    await app.connectWith(stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      return ctx.buildSession(d.cwd).withSession((session) => session.prompt("write"));
    });
    expect(seen.permissions).toHaveLength(1);
    expect(existsSync(path.join(d.cwd, "notes.txt"))).toBe(false);
  });

  it("refuses an untrusted project with the review as the error's message", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    await userSettings(d, [{ text: "hi" }]);
    await mkdir(path.join(d.cwd, ".acai"), { recursive: true });
    await writeFile(
      path.join(d.cwd, ".acai", "settings.json"),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "touch pwned" }] }] },
      }),
    );
    const { app, stream } = await startAgent(d, "allow_once");
    const error = await app
      .connectWith(stream, async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
        return ctx.request(acp.methods.agent.session.new, { cwd: d.cwd, mcpServers: [] });
      })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(acp.RequestError);
    expect((error as Error).message).toContain("acai hooks trust");
    expect((error as Error).message).toContain("touch pwned");
    expect(existsSync(path.join(d.cwd, "pwned"))).toBe(false);
  });

  it("starts the MCP servers the editor sends (their tools ask the editor) and refuses what a rule forbids", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    const log = path.join(d.root, "calls.jsonl");
    const server = path.join(REPO_ROOT, "test", "support", "mcp-test-server.mjs");
    const stdio = (name: string, mark: string): acp.McpServerStdio => ({
      name,
      command: process.execPath,
      args: [server],
      env: [
        { name: "MCP_TEST_LOG", value: log },
        { name: "MCP_TEST_MARK", value: mark },
      ],
    });
    await userSettings(
      d,
      [
        { tool_calls: [{ name: "mcp__ed__echo", input: { text: "hello" } }] },
        { tool_calls: [{ name: "mcp__ed__env", input: {} }] },
        { text: "done" },
      ],
      { mcpServers: { mine: { command: process.execPath, args: [server] } } },
    );
    const { app, stream, seen, stderr } = await startAgent(d, "allow_once");
    const result = await app.connectWith(stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
      });
      expect(init.agentCapabilities?.mcpCapabilities).toMatchObject({ http: true, sse: true });
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
        cwd: d.cwd,
        mcpServers: [
          stdio("ed", "from-editor"),
          stdio("mine", "clash"),
          stdio("bad name", "x"),
          { ...stdio("vars", "x"), args: ["$" + "{HOME}/server.mjs"] },
        ],
      });
      return ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "use the editor's server" }],
      });
    });
    expect(result.stopReason, stderr()).toBe("end_turn");
    // Like any MCP tool in the default mode, each call asked the editor.
    expect(seen.permissions.map((p) => p.toolCall.title)).toEqual([
      "mcp__ed__echo",
      "mcp__ed__env",
    ]);
    const ends = seen.updates.filter((u) => u.sessionUpdate === "tool_call_update");
    expect(ends.map((u) => u.status)).toEqual(["completed", "completed"]);
    expect(JSON.stringify(ends[0]?.content)).toContain("echo: hello");
    // The entry's env reached the server; acai's secrets did not.
    expect(JSON.stringify(ends[1]?.content)).toContain("mark=from-editor key=absent");
    expect((await readFile(log, "utf8")).trim().split("\n")).toHaveLength(2);
    const warnings = stderr();
    expect(warnings).toContain(
      "MCP server mine sent by the editor (ACP session/new) is not started",
    );
    expect(warnings).toMatch(/MCP server "bad name": a server name may use letters/);
    expect(warnings).toMatch(/MCP server "vars": it holds \$\{…\}/);
  });

  it("session/load resumes an earlier session, replaying its conversation first", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    await userSettings(d, [
      { text: "Looking.", tool_calls: [{ name: "Read", input: { file_path: "notes.txt" } }] },
      { text: "It says hi." },
    ]);
    await writeFile(path.join(d.cwd, "notes.txt"), "hi\n");
    const first = await startAgent(d, "allow_once");
    const sessionId = await first.app.connectWith(first.stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      const opened = await ctx.request(acp.methods.agent.session.new, {
        cwd: d.cwd,
        mcpServers: [],
      });
      const ended = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: opened.sessionId,
        prompt: [{ type: "text", text: "read the notes" }],
      });
      expect(ended.stopReason).toBe("end_turn");
      return opened.sessionId;
    });
    first.proc.stdin.end();
    await new Promise((resolve) => first.proc.once("close", resolve));

    const second = await startAgent(d, "allow_once");
    const replayed = await second.app.connectWith(second.stream, async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
      });
      expect(init.agentCapabilities?.loadSession).toBe(true);
      const unknown = await ctx
        .request(acp.methods.agent.session.load, { sessionId: "nope", cwd: d.cwd, mcpServers: [] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(unknown).toBeInstanceOf(acp.RequestError);
      await ctx.request(acp.methods.agent.session.load, { sessionId, cwd: d.cwd, mcpServers: [] });
      // Every update of the replay came before the response.
      const before = [...second.seen.updates];
      const again = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: "text", text: "and again" }],
      });
      expect(again.stopReason).toBe("end_turn");
      return before;
    });
    const chunks = replayed.map((u) =>
      u.sessionUpdate === "user_message_chunk" || u.sessionUpdate === "agent_message_chunk"
        ? `${u.sessionUpdate}:${u.content.type === "text" ? u.content.text : ""}`
        : u.sessionUpdate === "tool_call"
          ? `tool_call:${u.title}`
          : `${u.sessionUpdate}:${"status" in u ? u.status : ""}`,
    );
    expect(chunks).toEqual([
      "user_message_chunk:read the notes",
      "agent_message_chunk:Looking.",
      "tool_call:Read: notes.txt",
      "tool_call_update:completed",
      "agent_message_chunk:It says hi.",
    ]);
    const transcripts = readdirSync(path.join(d.acaiHome, "transcripts"));
    expect(transcripts).toHaveLength(1);
    const lines = readFileSync(path.join(d.acaiHome, "transcripts", transcripts[0] ?? ""), "utf8");
    expect(lines).toContain('"prompt":"and again"');
    expect(lines).toContain('"source":"resume"');
  });

  it("cancels a running turn: the tool is stopped, no process of it is left, the prompt ends cancelled", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    const marker = markers.next("acai-acp-cancel");
    // The call starts two processes: a backgrounded grandchild and the shell's own sleep.
    const command = `(${markedSleep(`${marker}-bg`)}) & ${markedSleep(marker)}`;
    await userSettings(
      d,
      [{ tool_calls: [{ name: "Bash", input: { command } }] }, { text: "never" }],
      { permissions: { allow: ["Bash"] } },
    );
    const { app, stream, seen, proc } = await startAgent(d, "allow_once");
    let groups: number[] = [];
    const result = await app.connectWith(stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      return ctx.buildSession(d.cwd).withSession(async (session) => {
        const prompt = session.prompt("wait");
        expect(await waitFor(() => pidsWith(marker).length === 2, 20_000)).toBe(true);
        const running = pidsWith(marker);
        // Started by this acai (its descendants), in process groups of their own.
        expect(running.every((pid) => descendsFrom(pid, proc.pid ?? -1))).toBe(true);
        groups = [...new Set(running.map(processGroup))];
        expect(groups).not.toContain(processGroup(proc.pid ?? -1));
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
        return prompt;
      });
    });
    expect(result.stopReason).toBe("cancelled");
    expect(await survivors(marker)).toEqual([]);
    expect(liveInGroups(groups)).toEqual([]);
    // The call is not left pending in the editor: it ended failed (stopped, or not run).
    const end = await eventually(() =>
      seen.updates.find((u) => u.sessionUpdate === "tool_call_update"),
    );
    expect(end?.status).toBe("failed");
  });
});

function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return undefined;
  }
}

/** Field 4 of /proc/PID/stat: the parent; field 5: the process group. */
const parentOf = (pid: number): number => Number(statFields(pid)?.[1] ?? 0);
const processGroup = (pid: number): number => Number(statFields(pid)?.[2] ?? -1);

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
    at = parentOf(at);
    if (at === ancestor) return true;
  }
  return false;
}

/** Live (not zombie) processes whose process group is one of `groups`. */
function liveInGroups(groups: readonly number[]): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => {
      const fields = statFields(pid);
      return fields !== undefined && fields[0] !== "Z" && groups.includes(Number(fields[2]));
    });
}
