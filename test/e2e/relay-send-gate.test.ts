/**
 * `before_message_send` for every message that leaves: `acai send` from the
 * shell passes the project's hooks as an agent's message does (a cancel
 * exits 3 naming the hook; an untrusted project's hooks do not run), and a
 * message of the model's that a hook cancelled is named in the warning and
 * told to the model with its next request.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { lastUser } from "./messaging-support.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** A settings file whose `no-secrets` hook cancels any message with SECRET in it. */
function noSecrets(): string {
  const command =
    "if grep -q SECRET; then echo 'no secrets leave this machine' >&2; exit 2; fi; exit 0";
  return JSON.stringify({
    hooks: { before_message_send: [{ hooks: [{ type: "command", name: "no-secrets", command }] }] },
  });
}

async function projectWithHook(d: AcaiDirs, name: string): Promise<AcaiDirs> {
  const cwd = path.join(d.root, name);
  await mkdir(path.join(cwd, ".acai"), { recursive: true });
  await writeFile(path.join(cwd, ".acai", "settings.json"), noSecrets());
  return { ...d, cwd };
}

const send = (d: AcaiDirs, text: string) =>
  runAcai({ dirs: d, args: ["send", "--queue", "bob", text], timeoutMs: 60_000 });

/** What bob's model was sent when bob started and picked up the messages kept for him. */
async function bobReceives(d: AcaiDirs, turns: FakeTurn[] = [{ text: "ok" }]): Promise<string> {
  server = await startFakeOpenAI(turns);
  const bob = await runAcai({
    dirs: d,
    args: ["-p", "any messages?", "--name", "bob", "--model", "openai:bob"],
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(bob.exitCode, bob.stderr).toBe(0);
  return server.requests.map((r) => JSON.stringify(r.body)).join("\n");
}

describe("before_message_send gates every message that leaves", { timeout: 120_000 }, () => {
  it("acai send in a trusted project: a cancel exits 3 naming the hook, nothing is sent; other messages go", async () => {
    dirs = await makeAcaiDirs("acai-send-gate-");
    const trusted = await projectWithHook(dirs, "trusted");
    const trust = await runAcai({ dirs: trusted, args: ["hooks", "trust"], timeoutMs: 60_000 });
    expect(trust.exitCode, trust.stderr).toBe(0);
    const cancelled = await send(trusted, "the SECRET launch date");
    expect(cancelled.exitCode).toBe(3);
    expect(cancelled.stderr).toContain(
      'message to bob not sent: hook "no-secrets" (before_message_send) cancelled it: no secrets leave this machine',
    );
    expect(cancelled.stderr).not.toMatch(/\n\s+at /);
    const fine = await send(trusted, "lunch at noon");
    expect(fine.exitCode, fine.stderr).toBe(0);
    const got = await bobReceives(dirs);
    expect(got).toContain("lunch at noon");
    expect(got).not.toContain("SECRET");
  });

  it("acai send in an untrusted project: its hooks do not run (a note says so), the message goes", async () => {
    dirs = await makeAcaiDirs("acai-send-gate-");
    const untrusted = await projectWithHook(dirs, "untrusted");
    const sent = await send(untrusted, "the SECRET launch date");
    expect(sent.exitCode, sent.stderr).toBe(0);
    expect(sent.stderr).toContain("this project's hooks are not trusted");
    expect(await bobReceives(dirs)).toContain("the SECRET launch date");
  });

  it("a message of the model's that a hook cancelled: the warning names the hook, the model is told with its next request", async () => {
    dirs = await makeAcaiDirs("acai-send-gate-");
    await writeFile(path.join(dirs.acaiHome, "settings.json"), noSecrets());
    // bob has run here, so a message to him is kept for him.
    await bobReceives(dirs);
    await server?.close();
    await writeFile(path.join(dirs.cwd, "notes.txt"), "notes\n");
    server = await startFakeOpenAI([
      {
        text: "Telling bob.\n@relay:bob the SECRET launch date",
        toolCalls: [{ name: "Read", input: { file_path: path.join(dirs.cwd, "notes.txt") } }],
      },
      { text: "Understood." },
    ]);
    const alice = await runAcai({
      dirs,
      args: ["-p", "tell bob", "--name", "alice", "--model", "openai:alice"],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(alice.exitCode, alice.stderr).toBe(0);
    expect(alice.stderr).toContain(
      'message to bob not sent: hook "no-secrets" (before_message_send) cancelled it: no secrets leave this machine',
    );
    expect(server.requests).toHaveLength(2);
    const next = JSON.stringify(server.requests[1]?.body);
    expect(next).toContain("<system-reminder>");
    expect(next).toContain(
      "Your message to bob (the @relay:bob line of your last reply) was NOT sent",
    );
    expect(next).toContain('hook \\"no-secrets\\" (before_message_send) cancelled it');
    expect(lastUser(server.requests[0]!)).toBe("tell bob");
    const got = await bobReceives(dirs);
    expect(got).not.toContain("SECRET");
  });
});
