/**
 * Sessions that resume (issue 10 item 3), through the built CLI against the
 * scripted server: `-c` / `--resume ID` send the earlier conversation (tool
 * calls and results included) exactly as it was sent before; session_start
 * says `resume`; `acai sessions` lists them; the transcript is Claude Code's
 * shape, so a Stop hook written for Claude Code finds the last assistant
 * message; a corrupt transcript line is skipped with a warning naming the file.
 */
import { appendFile, chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, transcripts } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-resume-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

type Message = { role: string; content: unknown };
const messagesOf = (i: number): Message[] =>
  ((server?.requests[i]?.body?.messages ?? []) as Message[]).filter((m) => m.role !== "system");

function acai(args: string[]) {
  if (!server) throw new Error("no server");
  return runAcai({ args: [...args, ...modelArgs("chat", server)], dirs, baseUrl: server.url });
}

async function recordingHook(events: string[]): Promise<string> {
  const out = path.join(dirs.root, "hook.jsonl");
  const script = path.join(dirs.root, "record.sh");
  await writeFile(script, `#!/bin/sh\ncat >> '${out}'\necho >> '${out}'\n`);
  await chmod(script, 0o755);
  const hook = [{ hooks: [{ type: "command", command: `'${script}'` }] }];
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({ hooks: Object.fromEntries(events.map((e) => [e, hook])) }),
  );
  return out;
}

describe("sessions that resume", () => {
  it("over the Responses API too, -c sends the earlier items again", async () => {
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Read", input: { file_path: "notes.txt" } }] },
      { text: "The notes say 42." },
      { text: "It was 42." },
    ]);
    await writeFile(path.join(dirs.cwd, "notes.txt"), "the answer is 42\n");
    const run = (args: string[]) =>
      runAcai({
        args: [...args, ...modelArgs("responses", server as FakeOpenAIServer)],
        dirs,
        baseUrl: server?.url,
      });
    expect((await run(["-p", "read notes.txt"])).exitCode).toBe(0);
    const second = await run(["-p", "what was the number?", "-c"]);
    expect(second.exitCode).toBe(0);
    const input = (i: number) => (server?.requests[i]?.body?.input ?? []) as unknown[];
    const before = input(1).filter((item) => (item as { role?: string }).role !== "system");
    const after = input(2).filter((item) => (item as { role?: string }).role !== "system");
    expect(after.slice(0, before.length)).toEqual(before);
    expect(JSON.stringify(after.at(-1))).toContain("what was the number?");
  }, 90_000);

  it("-c sends the earlier conversation exactly, tool calls included; session_start says resume", async () => {
    const out = await recordingHook(["SessionStart"]);
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Read", input: { file_path: "notes.txt" } }] },
      { text: "The notes say 42." },
      { text: "It was 42." },
    ]);
    await writeFile(path.join(dirs.cwd, "notes.txt"), "the answer is 42\n");
    const first = await acai(["-p", "read notes.txt"]);
    expect(first.exitCode).toBe(0);
    const second = await acai(["-p", "what was the number?", "-c"]);
    expect(second.stderr).toBe("");
    expect(second.exitCode).toBe(0);
    expect(second.stdout).toBe("It was 42.\n");
    // The earlier request, plus the answer, plus the new prompt: nothing lost or changed.
    const before = messagesOf(1);
    const after = messagesOf(2);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after[before.length]).toMatchObject({ role: "assistant", content: "The notes say 42." });
    expect(after.at(-1)).toEqual({ role: "user", content: "what was the number?" });
    const sources = (await readFile(out, "utf8"))
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as { source: string; session_id: string });
    expect(sources.map((s) => s.source)).toEqual(["startup", "resume"]);
    expect(sources[1]?.session_id).toBe(sources[0]?.session_id);
    // One session, one transcript.
    expect(await transcripts(dirs.acaiHome)).toHaveLength(1);
  }, 90_000);

  it("--resume takes a unique prefix; acai sessions lists the sessions; unknown ids are a usage error", async () => {
    server = await startFakeOpenAI([{ text: "one" }, { text: "two" }, { text: "three" }]);
    await acai(["-p", "the first session"]);
    await acai(["-p", "the second session"]);
    const listed = await runAcai({ args: ["sessions", "--json"], dirs });
    expect(listed.exitCode).toBe(0);
    const listing = JSON.parse(listed.stdout) as {
      sessions: { session_id: string; first_prompt: string; turns: number; model: string }[];
    };
    expect(listing.sessions.map((s) => s.first_prompt)).toEqual([
      "the second session",
      "the first session",
    ]);
    expect(listing.sessions[0]).toMatchObject({ turns: 1, model: "fake-model" });
    const text = await runAcai({ args: ["sessions"], dirs });
    expect(text.stdout).toContain("the first session");
    expect(text.stdout).toContain("acai --resume ID");

    const firstId = listing.sessions[1]?.session_id ?? "";
    const resumed = await acai(["-p", "again", "--resume", firstId.slice(0, 8)]);
    expect(resumed.exitCode).toBe(0);
    expect(messagesOf(2).map((m) => m.content)).toEqual(["the first session", "one", "again"]);

    const unknown = await acai(["-p", "x", "--resume", "zzzz"]);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain("--resume zzzz: no session with that id");
    expect(unknown.stderr).not.toMatch(STACK_TRACE);
    const none = await runAcai({
      args: ["-p", "x", "-c", "--model", "openai:fake-model", "--base-url", server.url],
      dirs: { ...dirs, cwd: dirs.home },
    });
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("--continue: no earlier session of this project");
  }, 90_000);

  it("the transcript is Claude Code's shape: a Stop hook finds the last assistant message; a corrupt line is skipped with a warning", async () => {
    const found = path.join(dirs.root, "found.txt");
    const script = path.join(dirs.root, "stop.mjs");
    await writeFile(
      script,
      `#!${process.execPath}
import { readFileSync, writeFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const lines = readFileSync(input.transcript_path, "utf8").trim().split("\\n").map((l) => JSON.parse(l));
const last = lines.filter((l) => l.type === "assistant").at(-1);
const text = last.message.content.filter((c) => c.type === "text").map((c) => c.text).join("");
writeFileSync(${JSON.stringify(found)}, text + "|" + last.sessionId + "|" + (last.parentUuid !== null));
`,
    );
    await chmod(script, 0o755);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: `'${script}'` }] }] },
      }),
    );
    server = await startFakeOpenAI([{ text: "All done here." }, { text: "still here" }]);
    const first = await acai(["-p", "do it"]);
    expect(first.exitCode).toBe(0);
    const [file] = await transcripts(dirs.acaiHome);
    expect((await readFile(found, "utf8")).split("|")).toEqual([
      "All done here.",
      path.basename(file ?? "").slice(11, -6),
      "true",
    ]);

    await appendFile(file ?? "", `{not json\n${"[".repeat(10_000)}\n`);
    const again = await acai(["-p", "more", "-c"]);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toContain(`${file}:`);
    expect(again.stderr).toContain("skipped");
    expect(messagesOf(1).map((m) => m.content)).toEqual(["do it", "All done here.", "more"]);
  }, 90_000);
});
