/**
 * `acai acp` driven by the ACP SDK's own client side (docs/acp.md): a
 * session whose tool call a hook blocks and whose next one the editor
 * approves; the trust rule (an untrusted project is refused with its review);
 * cancellation of a running turn.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable, Writable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, CLI_PATH, childEnv, makeAcaiDirs } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
let child: ChildProcessWithoutNullStreams | undefined;
afterEach(async () => {
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

  it("cancels a running turn: the tool is stopped and the prompt ends cancelled", async () => {
    const d = await makeAcaiDirs("acai-acp-");
    dirs = d;
    await userSettings(
      d,
      [{ tool_calls: [{ name: "Bash", input: { command: "sleep 30" } }] }, { text: "never" }],
      { permissions: { allow: ["Bash(sleep:*)"] } },
    );
    const { app, stream, seen } = await startAgent(d, "allow_once");
    const result = await app.connectWith(stream, async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, { protocolVersion: acp.PROTOCOL_VERSION });
      return ctx.buildSession(d.cwd).withSession(async (session) => {
        const prompt = session.prompt("wait");
        while (!seen.updates.some((u) => u.sessionUpdate === "tool_call")) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId: session.sessionId });
        return prompt;
      });
    });
    expect(result.stopReason).toBe("cancelled");
    // The call is not left pending in the editor: it ended failed (stopped, or not run).
    const end = await eventually(() =>
      seen.updates.find((u) => u.sessionUpdate === "tool_call_update"),
    );
    expect(end?.status).toBe("failed");
  });
});
