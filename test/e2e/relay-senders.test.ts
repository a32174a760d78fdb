/**
 * Whose messages an agent takes, and what it tells the model and the user,
 * on the embedded store (no server): relay.acceptFrom, the project marker,
 * a corrupted agents row in `acai agents` / `acai send`, and a NATS server off
 * this machine without credentials.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type RecordedRequest,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import {
  type AcaiDirs,
  type AcaiProcess,
  makeAcaiDirs,
  runAcai,
  startAcai,
} from "../support/run-acai.js";
import { lastUser, listening, modelOf, seen, until } from "./messaging-support.js";

let server: FakeOpenAIServer | undefined;
let dirs: AcaiDirs | undefined;
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

async function setUp(settings: Record<string, unknown>): Promise<AcaiDirs> {
  dirs = await makeAcaiDirs("acai-relay-senders-");
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(settings));
  return dirs;
}

function listen(d: AcaiDirs, name: string, url: string): AcaiProcess {
  const p = startAcai({
    dirs: d,
    args: ["-p", "--listen", "--name", name, "--model", `openai:${name}`],
    baseUrl: url,
    timeoutMs: 120_000,
  });
  running.push(p);
  return p;
}

describe("senders on the embedded store", { timeout: 150_000 }, () => {
  it("relay.acceptFrom drops a sender it does not name, with a note to the user and nothing to the model", async () => {
    const d = await setUp({ relay: { acceptFrom: ["alice", "build-*"] } });
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const bob = listen(d, "bob", server.url);
    await listening(bob);
    for (const from of ["mallory", "alice", "build-7"]) {
      const sent = await runAcai({
        dirs: d,
        args: ["send", "--from", from, "bob", `note from ${from}`],
      });
      expect(sent.exitCode, sent.stderr).toBe(0);
    }
    await until("bob to get build-7's message", () =>
      seen(server?.requests ?? [], "bob", "note from build-7"),
    );
    expect(seen(server.requests, "bob", "note from alice")).toBe(true);
    expect(server.requests.some((r) => lastUser(r).includes("mallory"))).toBe(false);
    bob.child.kill("SIGTERM");
    const result = await bob.result;
    running.splice(0);
    expect(result.stderr).toContain(
      "a message from mallory in the relay store was dropped: relay.acceptFrom in settings does not name it",
    );
  });

  it("a message from an agent of another project says which project; one from the same project does not", async () => {
    const d = await setUp({});
    const other = path.join(d.root, "payments-service");
    await mkdir(other);
    server = await startFakeOpenAI((request: RecordedRequest) => {
      const model = modelOf(request);
      if (model === "alice") return { text: "@relay:bob hello from the other project" };
      if (model === "carol") return { text: "@relay:bob hello from next door" };
      return { text: "ok" };
    });
    const bob = listen(d, "bob", server.url);
    await listening(bob);
    const alice = await runAcai({
      dirs: { ...d, cwd: other },
      args: ["-p", "go", "--name", "alice", "--model", "openai:alice"],
      baseUrl: server.url,
    });
    expect(alice.exitCode, alice.stderr).toBe(0);
    const carol = await runAcai({
      dirs: d,
      args: ["-p", "go", "--name", "carol", "--model", "openai:carol"],
      baseUrl: server.url,
    });
    expect(carol.exitCode, carol.stderr).toBe(0);
    await until(
      "bob to get both",
      () =>
        seen(server?.requests ?? [], "bob", "hello from the other project") &&
        seen(server?.requests ?? [], "bob", "hello from next door"),
    );
    const texts = server.requests.filter((r) => modelOf(r) === "bob").map(lastUser);
    expect(texts).toContain(
      'Message from agent alice in another project, "payments-service", (reply with @relay:alice <text>):\nhello from the other project',
    );
    expect(texts).toContain(
      "Message from agent carol (reply with @relay:carol <text>):\nhello from next door",
    );
  });

  it("a corrupted agents row: acai agents and acai send say so in one line and go on", async () => {
    const d = await setUp({});
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const bob = listen(d, "bob", server.url);
    await listening(bob);
    const db = new DatabaseSync(path.join(d.acaiHome, "relay", "relay.db"), { timeout: 5000 });
    db.prepare("INSERT INTO agents VALUES (?, ?, ?, ?, ?, ?, ?)").run(
      "eve",
      "s",
      "NaN",
      "h",
      "/c",
      1,
      0,
    );
    db.close();
    const listed = await runAcai({ dirs: d, args: ["agents"] });
    expect(listed.exitCode, listed.stderr).toBe(0);
    expect(listed.stdout).toContain("bob");
    expect(listed.stdout).not.toContain("eve");
    const lines = listed.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^acai: .*relay\.db: a malformed agents row \(name "eve"\) was skipped and moved to its quarantine table: pid: /,
    );
    expect(listed.stderr).not.toContain("ZodError");
    const sent = await runAcai({ dirs: d, args: ["send", "bob", "still works"] });
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(sent.stdout).toBe("sent to bob\n");
  });

  it("a NATS server off this machine without relay.auth is refused, naming the setting; nothing connects", async () => {
    const d = await setUp({ relay: { url: "nats://192.0.2.1:4222" } });
    const listed = await runAcai({ dirs: d, args: ["agents"] });
    expect(listed.exitCode).toBe(2);
    expect(listed.stderr).toContain("relay.url nats://192.0.2.1:4222 is not on this machine");
    expect(listed.stderr).toContain("add relay.auth to your settings.json");
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const run = await runAcai({
      dirs: d,
      args: ["-p", "hi", "--model", "openai:x"],
      baseUrl: server.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("messages between agents are off for this session: relay.url");
  });

  it("a token named in an environment variable that is not set is said, and the token is never printed", async () => {
    const d = await setUp({
      relay: { url: "nats://nats.example:4222", auth: { token: { env: "ACAI_E2E_NATS_TOKEN" } } },
    });
    const missing = await runAcai({ dirs: d, args: ["agents"] });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain(
      "relay.auth.token names the environment variable ACAI_E2E_NATS_TOKEN, which is not set",
    );
  });
});
