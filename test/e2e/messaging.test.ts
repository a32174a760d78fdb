/**
 * Messages between agents through the real CLI, on the embedded transport
 * (one ACAI_HOME shared by the sessions), against the scripted model server:
 * what reached each model is read from the server's recorded requests.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import {
  type AcaiDirs,
  type AcaiProcess,
  makeAcaiDirs,
  runAcai,
  startAcai,
} from "../support/run-acai.js";
import { exchangeScript, lastUser, listening, modelOf, seen, until } from "./messaging-support.js";

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

function listen(name: string, args: string[] = []): AcaiProcess {
  if (!dirs || !server) throw new Error("no dirs or server");
  const p = startAcai({
    dirs,
    args: ["-p", ...args, "--listen", "--name", name, "--model", `openai:${name}`],
    baseUrl: server.url,
    timeoutMs: 170_000,
  });
  running.push(p);
  return p;
}

async function stop(p: AcaiProcess) {
  p.child.kill("SIGTERM");
  const result = await p.result;
  running.splice(running.indexOf(p), 1);
  return result;
}

// Several acai processes per test: generous limits for a loaded machine (nothing here is timed).
describe("messages between agents (embedded transport)", { timeout: 180_000 }, () => {
  it("two sessions exchange messages both ways, a broadcast reaches both others, message_sent hooks see them", async () => {
    dirs = await makeAcaiDirs("acai-msg-e2e-");
    const sentLog = path.join(dirs.root, "sent.jsonl");
    const hooks = {
      message_sent: [
        { hooks: [{ type: "command", command: `cat >> '${sentLog}'; echo >> '${sentLog}'` }] },
      ],
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    server = await startFakeOpenAI(exchangeScript);
    const bob = listen("bob");
    const carol = listen("carol");
    await Promise.all([listening(bob), listening(carol)]);
    const alice = listen("alice", ["start the exchange"]);
    const requests = server.requests;
    await until("bob to get alice's message", () => seen(requests, "bob", "Hello bob from alice"));
    await until("alice to get bob's answer", () => seen(requests, "alice", "Hi alice, bob here"));
    await until("bob to get the broadcast", () => seen(requests, "bob", "Status check from alice"));
    await until("carol to get the broadcast", () =>
      seen(requests, "carol", "Status check from alice"),
    );
    // The text the model gets names the sender and how to answer.
    const toBob = requests.find((r) => modelOf(r) === "bob" && lastUser(r).includes("Hello bob"));
    expect(lastUser(toBob ?? requests[0]!)).toContain(
      "Message from agent alice (reply with @relay:alice",
    );
    expect(requests.some((r) => modelOf(r) === "carol" && lastUser(r).includes("Hello bob"))).toBe(
      false,
    );
    await until("message_sent hooks to log three messages", async () => {
      const text = await readFile(sentLog, "utf8").catch(() => "");
      return text.split("\n").filter((l) => l.trim()).length >= 3;
    });

    for (const p of [alice, bob, carol]) {
      const result = await stop(p);
      expect(result.exitCode, result.stderr).toBe(143);
      expect(result.timedOut).toBe(false);
    }
    const sent = (await readFile(sentLog, "utf8"))
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(sent).toContainEqual(
      expect.objectContaining({
        event: "message_sent",
        from: "alice",
        to: "bob",
        delivered_to: ["bob"],
      }),
    );
    const broadcast = sent.find((s) => s.to === "*");
    expect(((broadcast?.delivered_to ?? []) as string[]).sort()).toEqual(["bob", "carol"]);
    expect(sent).toContainEqual(
      expect.objectContaining({ from: "bob", to: "alice", agent_name: "bob" }),
    );
    // Nothing is left running: no agent is listed any more.
    const after = await runAcai({ dirs, args: ["agents"], timeoutMs: 60_000 });
    expect(after.stdout).toContain("No agent is running");
  });

  it("acai send reaches a listening agent; a message_received hook suppresses one and rewrites another", async () => {
    dirs = await makeAcaiDirs("acai-msg-e2e-");
    const command = [
      "payload=$(cat)",
      `case "$payload" in *SPAM*) echo '{"suppress": true}';; *REWRITE*) echo '{"inject": "REWRITTEN BY THE HOOK"}';; esac`,
    ].join("; ");
    const hooks = { message_received: [{ hooks: [{ type: "command", command }] }] };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    server = await startFakeOpenAI(() => ({ text: "noted" }));
    const dave = listen("dave");
    await listening(dave);
    for (const text of ["SPAM: cheap offer", "REWRITE this one", "plain hello"]) {
      const sent = await runAcai({ dirs, args: ["send", "dave", text], timeoutMs: 60_000 });
      expect(sent.exitCode, sent.stderr).toBe(0);
      expect(sent.stdout).toBe("sent to dave\n");
    }
    const requests = server.requests;
    await until("dave to get the plain message", () => seen(requests, "dave", "plain hello"));
    const result = await stop(dave);
    const bodies = requests.map((r) => JSON.stringify(r.body));
    expect(bodies.some((b) => b.includes("cheap offer"))).toBe(false);
    expect(bodies.some((b) => b.includes("REWRITE this one"))).toBe(false);
    expect(requests.map(lastUser)).toContain("REWRITTEN BY THE HOOK");
    expect(lastUser(requests.at(-1)!)).toContain("Message from agent shell");
    // The listener says what arrived, inert, on stderr.
    expect(result.stderr).toContain("message from shell: plain hello");
  });

  it("a message for an agent that is not running is kept and reaches it at its next model request under -p", async () => {
    dirs = await makeAcaiDirs("acai-msg-e2e-");
    server = await startFakeOpenAI(() => ({ text: "done" }));
    const queued = await runAcai({
      dirs,
      args: ["send", "--queue", "erin", "note from the shell"],
    });
    expect(queued.exitCode, queued.stderr).toBe(0);
    expect(queued.stdout).toContain("erin is not running: the message is kept");
    const first = await runAcai({
      dirs,
      args: ["-p", "hello", "--name", "erin", "--model", "openai:erin"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(first.exitCode, first.stderr).toBe(0);
    const body = JSON.stringify(server.requests[0]?.body);
    expect(body).toContain("hello");
    expect(body).toContain("note from the shell");
    // Delivered once: the next session of that name does not get it again.
    const second = await runAcai({
      dirs,
      args: ["-p", "again", "--name", "erin", "--model", "openai:erin"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(JSON.stringify(server.requests[1]?.body)).not.toContain("note from the shell");
  });

  it("says plainly what is wrong: an unknown agent, a long message, a bad or taken name", async () => {
    dirs = await makeAcaiDirs("acai-msg-e2e-");
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const unknown = await runAcai({ dirs, args: ["send", "ghost", "hello?"], timeoutMs: 60_000 });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("no agent named ghost has run here (no agent is running)");
    const long = await runAcai({
      dirs,
      args: ["send", "--queue", "ghost", "x".repeat(5001)],
      timeoutMs: 60_000,
    });
    expect(long.exitCode).toBe(2);
    expect(long.stderr).toContain("messages are capped at 5000 characters");
    const bad = await runAcai({ dirs, args: ["-p", "hi", "--name", "../evil"], timeoutMs: 60_000 });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain("an agent name is 1–64 characters");
    const frank = listen("frank");
    await listening(frank);
    const second = await runAcai({
      dirs,
      args: ["-p", "hi", "--name", "frank", "--model", "openai:frank"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(second.exitCode).toBe(2);
    expect(second.stderr).toContain("an agent named frank is already running");
    await stop(frank);
  });
});
