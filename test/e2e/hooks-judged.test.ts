/**
 * `type: "prompt"` and `type: "agent"` settings hooks through `acai -p`
 * against the scripted model server: the judge's one request carries the
 * payload in place of `$ARGUMENTS` and offers no tools; `{"ok": false}`
 * blocks, `{"ok": true}` lets the call run; a judge slower than the hook's
 * timeout is the hook's failure; the request never reaches a hook (no
 * before_model for it). The agent hook's verifier has read-only tools only,
 * and reads under the session's permission rules.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  scriptBySystemPrompt,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  await dirs?.cleanup();
  server = undefined;
  dirs = undefined;
});

const BASH_CALL: FakeTurn = {
  toolCalls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }],
};
const JUDGE = "You evaluate one event of a coding agent";
const VERIFIER = "You verify one event of a coding agent";

async function setUp(
  settings: object,
  judge: { system: string; turns: FakeTurn[] },
): Promise<{ d: AcaiDirs; s: FakeOpenAIServer }> {
  const d = await makeAcaiDirs("acai-hook-judged-");
  dirs = d;
  const s = await startFakeOpenAI(scriptBySystemPrompt([judge], [BASH_CALL, { text: "done" }]));
  server = s;
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  return { d, s };
}

const preToolUse = (hook: object) => ({
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook] }] },
});

const run = (d: AcaiDirs, s: FakeOpenAIServer) =>
  runAcai({ args: ["-p", "go", ...modelArgs("chat", s), "--yes"], dirs: d, baseUrl: s.url });

const ran = (d: AcaiDirs) =>
  stat(path.join(d.cwd, "ran.txt")).then(
    () => true,
    () => false,
  );

const requestsTo = (s: FakeOpenAIServer, system: string) =>
  s.requests.filter((r) => JSON.stringify(r.body?.messages ?? []).includes(system));

const toolNames = (body: Record<string, unknown> | undefined): string[] =>
  ((body?.tools as { function?: { name?: string } }[] | undefined) ?? []).map(
    (tool) => tool.function?.name ?? "",
  );

async function auditLines(d: AcaiDirs): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("a prompt hook", () => {
  it('blocks on {"ok": false}: one request with the payload for $ARGUMENTS, no tools', async () => {
    const { d, s } = await setUp(
      preToolUse({ type: "prompt", prompt: "Is this command safe? $ARGUMENTS" }),
      { system: JUDGE, turns: [{ text: '{"ok": false, "reason": "judged unsafe"}' }] },
    );
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ran(d)).toBe(false);
    const judged = requestsTo(s, JUDGE);
    expect(judged).toHaveLength(1);
    const sent = JSON.stringify(judged[0]?.body?.messages);
    expect(sent).toContain("Is this command safe? {");
    expect(sent).toContain("echo ran > ran.txt");
    expect(sent).not.toContain("$ARGUMENTS");
    expect(toolNames(judged[0]?.body)).toEqual([]);
    // The model was told why its call did not run.
    expect(JSON.stringify(s.requests.at(-1)?.body)).toContain("judged unsafe");
    expect(await auditLines(d)).toContainEqual(
      expect.objectContaining({ type: "prompt", event: "before_tool", decision: "block" }),
    );
  });

  it('lets the call run on {"ok": true}', async () => {
    const { d, s } = await setUp(preToolUse({ type: "prompt", prompt: "Safe? $ARGUMENTS" }), {
      system: JUDGE,
      turns: [{ text: '```json\n{"ok": true}\n```' }],
    });
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ran(d)).toBe(true);
  });

  it("a judge slower than the hook's timeout is the hook's failure (open: the call runs)", async () => {
    const { d, s } = await setUp(
      preToolUse({ type: "prompt", prompt: "Safe? $ARGUMENTS", timeout: 0.5 }),
      { system: JUDGE, turns: [{ text: '{"ok": false, "reason": "too late"}', delayMs: 5000 }] },
    );
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("timed out after 500 ms");
    expect(await ran(d)).toBe(true);
  });

  it("an answer that is not a decision is a failure, never a silent continue", async () => {
    const { d, s } = await setUp(
      preToolUse({ type: "prompt", prompt: "Safe? $ARGUMENTS", onFailure: "block" }),
      { system: JUDGE, turns: [{ text: "Looks fine to me." }] },
    );
    await run(d, s);
    // Failure closed: a block whose reason (the model's tool result) says what went wrong.
    expect(JSON.stringify(s.requests.at(-1)?.body)).toContain("answered no JSON object");
    expect(await ran(d)).toBe(false);
  });

  it("never re-enters hooks: its model request raises no before_model", async () => {
    const d = await makeAcaiDirs("acai-hook-judged-");
    dirs = d;
    const count = path.join(d.root, "before-model.log");
    const s = await startFakeOpenAI(
      scriptBySystemPrompt(
        [{ system: JUDGE, turns: [{ text: '{"ok": true}' }] }],
        [{ text: "hello" }],
      ),
    );
    server = s;
    const settings = {
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "prompt", prompt: "Fine? $ARGUMENTS" }] }],
        before_model: [{ hooks: [{ type: "command", command: `echo x >> '${count}'` }] }],
      },
    };
    await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(requestsTo(s, JUDGE)).toHaveLength(1);
    expect(s.requests).toHaveLength(2);
    // One before_model: the session's own request, not the judge's.
    expect((await readFile(count, "utf8")).trim().split("\n")).toEqual(["x"]);
  });
});

describe("an agent hook", () => {
  it("runs a verifier with read-only tools that reads a file and blocks", async () => {
    const { d, s } = await setUp(
      preToolUse({ type: "agent", prompt: "Check NOTES.md allows this: $ARGUMENTS" }),
      {
        system: VERIFIER,
        turns: [
          { toolCalls: [{ name: "Read", input: { file_path: "NOTES.md" } }] },
          { text: '{"ok": false, "reason": "NOTES.md forbids shell today"}' },
        ],
      },
    );
    await writeFile(path.join(d.cwd, "NOTES.md"), "no shell commands today\n");
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ran(d)).toBe(false);
    const verifier = requestsTo(s, VERIFIER);
    expect(verifier).toHaveLength(2);
    expect(toolNames(verifier[0]?.body).sort()).toEqual(["Glob", "Grep", "Read"]);
    expect(JSON.stringify(verifier[1]?.body)).toContain("no shell commands today");
    expect(JSON.stringify(s.requests.at(-1)?.body)).toContain("NOTES.md forbids shell today");
    expect(await auditLines(d)).toContainEqual(
      expect.objectContaining({ type: "agent", decision: "block" }),
    );
  });

  it("reads under the session's permission rules: a denied file stays unread", async () => {
    const { d, s } = await setUp(
      {
        permissions: { deny: ["Read(secret.txt)"] },
        ...preToolUse({ type: "agent", prompt: "Verify: $ARGUMENTS" }),
      },
      {
        system: VERIFIER,
        turns: [
          { toolCalls: [{ name: "Read", input: { file_path: "secret.txt" } }] },
          { text: '{"ok": true}' },
        ],
      },
    );
    await writeFile(path.join(d.cwd, "secret.txt"), "the-secret-value\n");
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    const verifier = requestsTo(s, VERIFIER);
    expect(verifier).toHaveLength(2);
    expect(JSON.stringify(verifier[1]?.body)).not.toContain("the-secret-value");
    expect(JSON.stringify(verifier[1]?.body)).toMatch(/denied|not allowed/i);
    expect(await ran(d)).toBe(true);
  });
});
