/**
 * agent-relay's messages between agents (seed 000), as its users write them,
 * through the real CLI on the embedded transport: a listening agent (`acai -p
 * --listen`) with the seed's relay.config.ts, other agents and `acai send`
 * writing to it, and what reached its model read from the scripted server.
 * Example 3 (message filtering) with `@broadcast:` and `from === '*'`; a
 * sender's `metadata` reaching the receiver's `msg.metadata`; the `\@` escape
 * shown without its backslash and never routed.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { lastUser, listening, modelOf, seen, until } from "../../e2e/messaging-support.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  type RecordedRequest,
  startFakeOpenAI,
} from "../../support/fake-openai-server.js";
import {
  type AcaiDirs,
  type AcaiProcess,
  makeAcaiDirs,
  runAcai,
  startAcai,
} from "../../support/run-acai.js";

const EXAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), "examples");

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
const running: AcaiProcess[] = [];

afterEach(async () => {
  for (const p of running.splice(0)) {
    p.child.kill("SIGKILL");
    await p.result;
  }
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** The same ACAI_HOME (one relay), another project folder: another agent's project. */
async function otherProject(d: AcaiDirs, name: string): Promise<AcaiDirs> {
  const cwd = path.join(d.root, name);
  await mkdir(cwd, { recursive: true });
  return { ...d, cwd };
}

async function install(example: string, cwd: string) {
  await copyFile(
    path.join(EXAMPLES, example, "relay.config.ts"),
    path.join(cwd, "relay.config.ts"),
  );
}

function listen(d: AcaiDirs, name: string, extra: string[] = []): AcaiProcess {
  if (!server) throw new Error("no server");
  const p = startAcai({
    dirs: d,
    args: ["-p", "--listen", "--name", name, "--model", `openai:${name}`, ...extra],
    baseUrl: server.url,
    timeoutMs: 170_000,
  });
  running.push(p);
  return p;
}

async function send(d: AcaiDirs, args: string[]) {
  const sent = await runAcai({ dirs: d, args: ["send", ...args], timeoutMs: 60_000 });
  expect(sent.exitCode, sent.stderr).toBe(0);
}

/** Every user message the model `name` was sent, as text. */
function userTexts(requests: readonly RecordedRequest[], name: string): string[] {
  return requests
    .filter((r) => modelOf(r) === name)
    .flatMap((r) => (r.body?.messages ?? []) as { role: string; content: unknown }[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

async function audit(d: AcaiDirs): Promise<string> {
  return readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8").catch(() => "");
}

const script =
  (lead: FakeTurn) =>
  (request: RecordedRequest): FakeTurn =>
    modelOf(request) === "Lead" ? lead : { text: "noted" };

describe("agent-relay's messages, through acai", { timeout: 180_000 }, () => {
  it("Example 3: a STATUS @broadcast: is suppressed (from === '*'), URGENT highlighted, the rest formatted by default", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-msg-");
    await install("3-message-filtering", dirs.cwd);
    server = await startFakeOpenAI(
      script({ text: "Reporting.\n@broadcast: STATUS: all green\n@broadcast: Lunch is at noon" }),
    );
    const dev = listen(dirs, "Dev", ["--trust-project"]);
    await listening(dev);
    // Another agent's model broadcasts with agent-relay's @broadcast: namespace.
    const lead = await runAcai({
      dirs: await otherProject(dirs, "lead"),
      args: ["-p", "report", "--name", "Lead", "--model", "openai:Lead"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(lead.exitCode, lead.stderr).toBe(0);
    await send(dirs, ["--from", "Lead", "Dev", "URGENT: prod is down"]);
    await send(dirs, ["--from", "Lead", "Dev", "see you tomorrow"]);
    const requests = server.requests;
    await until("Dev to get the last message", () => seen(requests, "Dev", "see you tomorrow"));
    const got = userTexts(requests, "Dev").join("\n---\n");
    expect(got).not.toContain("all green");
    expect(got).toContain("\n>>> URGENT from Lead: URGENT: prod is down <<<\n");
    expect(got).toContain("Broadcast message from agent Lead");
    expect(got).toContain("Lunch is at noon");
    expect(got).toContain(
      "Message from agent Lead (reply with @relay:Lead <text>):\nsee you tomorrow",
    );
    expect(await audit(dirs)).toContain("Suppressed broadcast from *");
  });

  it("a sender's metadata reaches the receiver's msg.metadata (acai send --metadata, sendMessage, ctx.notify)", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-msg-");
    await install("custom-formatting", dirs.cwd);
    const payloads = path.join(dirs.root, "received.jsonl");
    const hooks = {
      message_received: [
        { hooks: [{ type: "command", command: `cat >> '${payloads}'; echo >> '${payloads}'` }] },
      ],
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    server = await startFakeOpenAI(script({ text: "Deploys are frozen until Monday" }));
    const dev = listen(dirs, "Dev", ["--trust-project"]);
    await listening(dev);
    await send(dirs, [
      "--metadata",
      '{"urgent": true, "sender": "Coordinator"}',
      "Dev",
      "db is down",
    ]);
    const leadDirs = await otherProject(dirs, "lead");
    await install("metadata-sender", leadDirs.cwd);
    const lead = await runAcai({
      dirs: leadDirs,
      args: ["-p", "freeze", "--trust-project", "--name", "Lead", "--model", "openai:Lead"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(lead.exitCode, lead.stderr).toBe(0);
    await send(dirs, ["Dev", "just fyi"]);
    const requests = server.requests;
    await until("Dev to get the last message", () => seen(requests, "Dev", "just fyi"));
    const got = userTexts(requests, "Dev");
    expect(got).toContain("🚨 URGENT Message from shell: db is down");
    expect(got).toContain("🚨 URGENT Message from Lead: Lead froze the deploys");
    expect(got).toContain("📨 Message from Lead: FYI: Deploys are frozen until Monday");
    expect(got).toContain("📨 Message from shell: just fyi");
    // Hooks in any language get it as the payload's metadata; the sender cannot forge who it is.
    const received = (await readFile(payloads, "utf8"))
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(received.find((p) => p.content === "db is down")?.metadata).toEqual({
      urgent: true,
      sender: "Coordinator",
    });
    expect(received.find((p) => p.content === "just fyi")).not.toHaveProperty("metadata");
    expect(received.find((p) => p.from === "Lead")?.metadata).toEqual({
      urgent: true,
      ticket: "OPS-7",
    });
  });

  it("acai send --metadata that is not a bounded JSON object is refused, naming the flag", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-msg-");
    for (const bad of ["[1, 2]", "{urgent", JSON.stringify({ note: "x".repeat(2100) })]) {
      const result = await runAcai({
        dirs,
        args: ["send", "--queue", "--metadata", bad, "Dev", "hello"],
        timeoutMs: 60_000,
      });
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain("--metadata");
    }
  });

  it("onIdle's inject starts a turn in a listening agent, once: the same reminder does not stack or loop", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-msg-");
    const text = await readFile(path.join(EXAMPLES, "idle-threshold", "relay.config.ts"), "utf8");
    // The seed's 60 s, made 300 ms so the test does not wait a minute.
    await writeFile(
      path.join(dirs.cwd, "relay.config.ts"),
      text.replace("idleThreshold: 60000", "idleThreshold: 300"),
    );
    // Counts idle periods (answers nothing), so the test waits for events, not for time.
    const idles = path.join(dirs.root, "idles.log");
    const hooks = { idle: [{ hooks: [{ type: "command", command: `echo x >> '${idles}'` }] }] };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    const idleCount = async () =>
      (await readFile(idles, "utf8").catch(() => "")).split("\n").filter(Boolean).length;
    server = await startFakeOpenAI(() => ({ text: "working on it" }));
    const dev = listen(dirs, "Dev", ["--trust-project"]);
    await listening(dev);
    const requests = server.requests;
    const status = "[STATUS CHECK] Are you making progress?";
    const statusTurns = () => requests.filter((r) => lastUser(r) === status).length;
    await until("the idle reminder to start a turn", () => statusTurns() >= 1);
    const after = await idleCount();
    await until("four more idle periods", async () => (await idleCount()) >= after + 4);
    expect(statusTurns()).toBe(1);
    // Another turn in between: the next idle period may remind again.
    await send(dirs, ["Dev", "hello"]);
    await until("Dev to answer the message", () => seen(requests, "Dev", "hello"));
    await until("the reminder after the message", () => statusTurns() >= 2);
    // A reminder is a turn's prompt, never also context of a later request.
    const bodies = requests.map((r) => JSON.stringify(r.body));
    expect(bodies.filter((b) => b.includes("STATUS CHECK")).length).toBeGreaterThanOrEqual(2);
    const helloTurn = requests.find((r) => lastUser(r).includes("hello"));
    expect(lastUser(helloTurn ?? requests[0]!)).not.toContain("STATUS CHECK");
  });

  it("the \\@ escape: shown without its backslash (\\\\@ keeps one), never routed; nor an @relay: line in fenced code", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-msg-");
    const text = [
      "To write to Alice, an agent puts:",
      "\\@relay:Alice Check the tests",
      "\\\\@relay:Alice shows one backslash",
      "```",
      "\\@relay:Alice in code stays as written",
      "@relay:Alice in a code block is an example, not a message",
      "```",
    ].join("\n");
    server = await startFakeOpenAI([
      { text, chunkSize: 3 },
      { text, chunkSize: 5 },
    ]);
    const args = ["-p", "how?", "--name", "Bob", "--model", "openai:Bob"];
    const plain = await runAcai({ dirs, args, baseUrl: server.url, timeoutMs: 60_000 });
    expect(plain.exitCode, plain.stderr).toBe(0);
    const shown = [
      "To write to Alice, an agent puts:",
      "@relay:Alice Check the tests",
      "\\@relay:Alice shows one backslash",
      "```",
      "\\@relay:Alice in code stays as written",
      "@relay:Alice in a code block is an example, not a message",
      "```",
    ].join("\n");
    expect(plain.stdout).toBe(`${shown}\n`);
    // Not routed, escaped or in code: no message to Alice was tried (she never ran: it would be a warning).
    expect(plain.stderr).not.toContain("Alice");
    const json = await runAcai({
      dirs,
      args: [...args, "--output-format", "json"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(json.exitCode, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as { result: string }).result).toBe(shown);
  });
});
