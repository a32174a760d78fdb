/**
 * OpenClaw's plugin hooks as its users write them (the seed's audit-log
 * example and one plugin per kind of hook, in plugins/), each installed in
 * `~/.acai/plugins/` and run through `acai -p` against the scripted model
 * server: what reached the model is read from the server's recorded
 * requests, what the handlers saw from the files they write.
 */
import { copyFile, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { modelArgs, STACK_TRACE, toolResultsSent } from "../../e2e/helpers.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../../support/run-acai.js";

const PLUGINS = path.join(path.dirname(fileURLToPath(import.meta.url)), "plugins");

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let log: string;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-seeds-openclaw-");
  log = path.join(dirs.root, "claw.jsonl");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** Installs the examples (and the seed's types beside them) as the user's plugins. */
async function install(...names: string[]): Promise<void> {
  const dir = path.join(dirs.acaiHome, "plugins");
  await mkdir(dir, { recursive: true });
  for (const name of [...names, "types.d.ts"]) {
    await copyFile(path.join(PLUGINS, name), path.join(dir, name));
  }
}

async function settings(values: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(values));
}

async function acai(script: FakeTurn[], prompt: string, extra: string[] = []) {
  server ??= await startFakeOpenAI(script);
  return runAcai({
    args: ["-p", prompt, ...extra, ...modelArgs("chat", server)],
    dirs,
    baseUrl: server.url,
    env: { CLAW_LOG: log, CLAW_DIR: dirs.root },
    timeoutMs: 40_000,
  });
}

async function lines(file = log): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

const sent = (i: number): string => JSON.stringify(server?.requests[i]?.body?.messages ?? []);

describe("OpenClaw's plugin hooks through acai -p", { timeout: 60_000 }, () => {
  it("the seed's audit-log example records each sent message with its session key, channel and direction", async () => {
    await install("audit-log.ts");
    const result = await acai([{ text: "hello back" }], "hello");
    expect(result.exitCode, result.stderr).toBe(0);
    const records = await lines();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ channel: "acai", direction: "sent" });
    expect(records[0]?.sessionKey).toMatch(/\S/);
    expect(typeof records[0]?.timestamp).toBe("number");
  });

  it("gateway and session hooks: start before the first request, stop at the end, with the agent context", async () => {
    await install("lifecycle.ts");
    const result = await acai([{ text: "ok" }], "hi");
    expect(result.exitCode, result.stderr).toBe(0);
    const records = await lines();
    const events = records.map((r) => r.event);
    expect([...events].sort()).toEqual([
      "gateway-start",
      "gateway-stop",
      "session-end",
      "session-start",
    ]);
    // Starts come before ends (void hooks run in parallel, so not in a fixed order among themselves).
    expect(Math.max(events.indexOf("gateway-start"), events.indexOf("session-start"))).toBeLessThan(
      Math.min(events.indexOf("gateway-stop"), events.indexOf("session-end")),
    );
    const sessionKey = records[0]?.sessionKey;
    expect(sessionKey).toMatch(/\S/);
    for (const r of records) {
      expect(r).toMatchObject({
        sessionKey,
        channel: "acai",
        agentDir: dirs.acaiHome,
        workspaceDir: dirs.cwd,
        model: "fake-model",
      });
    }
  });

  it("message-received filters: a cancelled prompt never reaches the model, a rewritten one does; before-agent-start adds context", async () => {
    await install("message-filter.ts");
    const cancelled = await acai([{ text: "first" }, { text: "second" }], "my password is hunter2");
    expect(cancelled.stderr + cancelled.stdout).toContain("no secrets in prompts");
    expect(server?.requests.length).toBe(0);
    const rewritten = await acai([], "what colour is the sky");
    expect(rewritten.exitCode, rewritten.stderr).toBe(0);
    expect(sent(0)).toContain("what color is the sky");
    expect(sent(0)).not.toContain("colour");
    expect(sent(0)).toContain("Project codename: BLUEBIRD");
    expect(await lines()).toContainEqual({
      senderId: "user",
      direction: "received",
      channel: "acai",
    });
    expect(cancelled.stderr + rewritten.stderr).not.toMatch(STACK_TRACE);
  });

  it("message-sending (either spelling) rewrites or cancels a message to another agent before it is sent", async () => {
    await install("message-sending.ts");
    const reply = [
      "Reporting to the team.",
      "@relay:bob Deployed; rotate the key sk-abc123XYZ today",
      "@relay:carol CONFIDENTIAL: the launch date",
    ].join("\n");
    const script = [
      { text: "hi" },
      { text: "hi" },
      { text: reply },
      { text: "ok" },
      { text: "ok" },
    ];
    // bob and carol have run here before, so messages are kept for them.
    for (const name of ["bob", "carol"]) {
      expect((await acai(script, "hello", ["--name", name])).exitCode).toBe(0);
    }
    const alice = await acai(script, "tell the others", ["--name", "alice"]);
    expect(alice.exitCode, alice.stderr).toBe(0);
    expect(alice.stderr).toMatch(/message to carol not sent: .*before_message_send.*cancelled/);
    expect(alice.stderr).not.toMatch(/message to bob not sent/);
    expect(alice.stderr).not.toMatch(STACK_TRACE);
    // The first handler saw each message as it was about to go: to whom, from whom, which way.
    expect(await lines()).toEqual([
      {
        to: "bob",
        senderId: "alice",
        direction: "sending",
        content: "Deployed; rotate the key sk-abc123XYZ today",
      },
      {
        to: "carol",
        senderId: "alice",
        direction: "sending",
        content: "CONFIDENTIAL: the launch date",
      },
    ]);
    // What bob and carol find waiting for them is what the hooks let out.
    expect((await acai(script, "any messages?", ["--name", "bob"])).exitCode).toBe(0);
    expect(sent(3)).toContain("Deployed; rotate the key [key] today -- sent by alice");
    expect(sent(3)).not.toContain("sk-abc123XYZ");
    expect((await acai(script, "any messages?", ["--name", "carol"])).exitCode).toBe(0);
    expect(sent(4)).toContain("any messages?");
    expect(sent(4)).not.toContain("CONFIDENTIAL");
    expect(sent(4)).not.toContain("Message from agent alice");
  });

  it("before-tool-call checks and modifies arguments: a blocked call's reason and a changed command reach the model", async () => {
    await install("tool-guard.ts");
    const result = await acai(
      [
        { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
        { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
        { text: "done" },
      ],
      "clean up",
      ["--allowedTools", "Bash"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(toolResultsSent(server?.requests[1]?.body).join("\n")).toContain(
      "recursive deletes are not allowed",
    );
    expect(toolResultsSent(server?.requests[2]?.body).at(-1)).toContain("hi (checked)");
  });

  it("after-tool-call handlers run in parallel; one that throws or hangs stops none of the others; failures are seen", async () => {
    await install("tool-audit.ts");
    await settings({ hookDefaults: { timeoutMs: 2000 } });
    const result = await acai(
      [
        { toolCalls: [{ name: "Bash", input: { command: "echo audited" } }] },
        { toolCalls: [{ name: "Read", input: { file_path: path.join(dirs.cwd, "missing.txt") } }] },
        { text: "done" },
      ],
      "go",
      ["--allowedTools", "Bash", "--allowedTools", "Read"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("done");
    const audit = await lines(path.join(dirs.root, "audit.jsonl"));
    // Each handler waited for the other to have started: both met, for both calls.
    expect(audit.filter((r) => r.met === true)).toHaveLength(4);
    const bash = audit.find((r) => r.by === "a" && r.toolName === "Bash");
    expect(bash?.args).toEqual({ command: "echo audited" });
    expect(JSON.stringify(bash?.result)).toContain("audited");
    const read = audit.find((r) => r.by === "a" && r.toolName === "Read");
    expect(read?.error).toMatch(/missing\.txt|ENOENT|not found|does not exist/i);
  });

  it("tool-result-persist rewrites what is stored for a tool result: the model and the transcript get the redacted text", async () => {
    await install("result-archive.ts");
    const result = await acai(
      [
        { toolCalls: [{ name: "Bash", input: { command: "echo key=sk-abc123XYZ" } }] },
        { text: "done" },
      ],
      "show the key",
      ["--allowedTools", "Bash"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const toModel = toolResultsSent(server?.requests[1]?.body).join("\n");
    expect(toModel).toContain("key=[REDACTED]");
    expect(toModel).not.toContain("sk-abc123XYZ");
    const transcriptDir = path.join(dirs.acaiHome, "transcripts");
    const [transcript] = await readdir(transcriptDir);
    // The tool result message the transcript keeps (what a resumed session is given) is the rewritten one.
    const stored = (await lines(path.join(transcriptDir, String(transcript)))).filter(
      (l) => l.acai_role === "tool",
    );
    expect(JSON.stringify(stored)).toContain('"content":"key=[REDACTED]\\n"');
    expect(JSON.stringify(stored)).not.toContain("sk-abc123XYZ");
  });

  it("before-compaction preserves information in the summary; after-compaction sees the summary", async () => {
    await install("compaction.ts");
    await settings({ contextWindow: 2_000 });
    const old = `OLD-TURN ${"the earlier discussion ".repeat(200)}`;
    const script: FakeTurn[] = [
      { text: "old answer" },
      {
        toolCalls: [{ name: "Read", input: { file_path: "a.txt" } }],
        usage: { inputTokens: 1_700, outputTokens: 10 },
      },
      { text: "SUMMARY-TEXT" },
      { text: "final answer" },
    ];
    expect((await acai(script, old)).exitCode).toBe(0);
    await writeFile(path.join(dirs.cwd, "a.txt"), "A\n");
    const second = await acai(script, "now read a.txt", ["-c"]);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(sent(2)).toContain("Summarise the conversation so far");
    expect(sent(2)).toContain("Keep the name of the file BLUEBIRD.md");
    const records = await lines();
    expect(records.find((r) => r.event === "before-compaction")?.tokenCount).toBe(1_710);
    expect(records.find((r) => r.event === "after-compaction")).toMatchObject({
      summary: "SUMMARY-TEXT",
    });
  });

  it("a hook registered while the plugin runs takes effect; one acai cannot load is a warning naming it", async () => {
    await install("dynamic.ts");
    const result = await acai(
      [{ toolCalls: [{ name: "Bash", input: { command: "echo late" } }] }, { text: "done" }],
      "go",
      ["--allowedTools", "Bash"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(toolResultsSent(server?.requests[1]?.body).join("\n")).toContain(
      "blocked by a hook added later",
    );
    expect(result.stderr).toMatch(/dynamic\.ts.*"agent-end" is unknown/);
  });
});
