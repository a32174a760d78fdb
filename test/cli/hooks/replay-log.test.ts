import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs, transcripts } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { startAcai } from "../../support/run-acai.js";
import { type AcaiDirs, acai, tempProject, userHook } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

const GUARD_BODY = `input=$(cat); case "$input" in *"rm -rf"*) echo "guard says no" >&2; exit 2;; esac`;

/** One `acai -p` session in which a user hook blocks `rm -rf` and another adds prompt context. */
async function recordSession(d: AcaiDirs): Promise<string> {
  await userHook(
    d,
    "guard",
    { name: "guard", events: ["before_tool"], matcher: { tool: "Bash" } },
    GUARD_BODY,
  );
  await userHook(
    d,
    "ctx",
    { name: "ctx", events: ["user_prompt"] },
    "cat >/dev/null; echo 'the repo uses pnpm'",
  );
  server = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
    { toolCalls: [{ name: "Bash", input: { command: "echo listing" } }] },
    { text: "done" },
  ]);
  const run = await acai(d, ["-p", "clean up", "--yes", ...modelArgs("chat", server)], {
    baseUrl: server.url,
  });
  expect(run.exitCode, run.stderr).toBe(0);
  const [transcript] = await transcripts(d.acaiHome);
  expect(transcript).toBeDefined();
  return transcript as string;
}

interface Replayed {
  index: number;
  hook_event: string;
  runs: { hook: string; decision: string }[];
  applied: { action: string; reason?: string };
  now: { action: string; reason?: string };
  differs: string[];
}

describe("acai hooks replay", () => {
  it("reproduces the recorded decisions, then shows what a changed hook decides differently", async () => {
    dirs = await tempProject();
    const transcript = await recordSession(dirs);
    const requestsBefore = server?.requests.length;

    // The session ran with --yes (its Bash calls were approved); the replay answers
    // the permission questions the same way, as the recorded user did.
    const same = await acai(dirs, ["hooks", "replay", transcript, "--json", "--yes"]);
    expect(same.exitCode, same.stderr).toBe(0);
    const report = JSON.parse(same.stdout) as { differences: number; replayed: Replayed[] };
    expect(report.differences).toBe(0);
    const blocked = report.replayed.find(
      (r) => r.hook_event === "before_tool" && r.applied.action === "block",
    );
    expect(blocked?.now).toEqual({ action: "block", reason: "guard says no" });
    expect(blocked?.runs).toEqual([expect.objectContaining({ hook: "guard", decision: "block" })]);
    const prompt = report.replayed.find((r) => r.hook_event === "user_prompt");
    expect(prompt?.runs.map((r) => r.hook)).toEqual(["ctx"]);
    expect(prompt?.differs).toEqual([]);
    // No model request was made by the replay.
    expect(server?.requests.length).toBe(requestsBefore);

    // The guard now allows everything and blocks "echo" instead.
    await userHook(
      dirs,
      "guard",
      { name: "guard", events: ["before_tool"], matcher: { tool: "Bash" } },
      `input=$(cat); case "$input" in *echo*) echo "no echo" >&2; exit 2;; esac`,
    );
    const changed = await acai(dirs, [
      "--yes",
      "hooks",
      "replay",
      path
        .basename(transcript)
        .replace(/^\d{4}-\d\d-\d\d-/, "")
        .replace(/\.jsonl$/, ""),
    ]);
    expect(changed.exitCode, changed.stderr).toBe(0);
    expect(changed.stdout).toMatch(
      /then: block "guard says no"\n\s+now: {2}continue\s+← differs \(action, reason\)/,
    );
    expect(changed.stdout).toMatch(
      /then: continue\n\s+now: {2}block "no echo"\s+← differs \(action, reason\)/,
    );
    expect(changed.stdout).toMatch(/2 of \d+ event\(s\) would be decided differently now/);
  });

  it("explains a file that is not a transcript", async () => {
    dirs = await tempProject();
    const file = path.join(dirs.root, "notes.jsonl");
    await appendFile(file, '{"hello":"world"}\n{"x":1}\n');
    const result = await acai(dirs, ["hooks", "replay", file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("notes.jsonl:1 is neither an agent event nor a verdict");
    const missing = await acai(dirs, ["hooks", "replay", "no-such-session"]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("no transcript no-such-session");
  });
});

describe("acai hooks log", () => {
  it("shows the audit log readably, filters by session, and follows new runs", async () => {
    dirs = await tempProject();
    const transcript = await recordSession(dirs);
    const sessionId = path
      .basename(transcript)
      .replace(/^\d{4}-\d\d-\d\d-/, "")
      .replace(/\.jsonl$/, "");

    const log = await acai(dirs, ["hooks", "log"]);
    expect(log.exitCode).toBe(0);
    expect(log.stdout).toMatch(
      new RegExp(
        `${sessionId.slice(0, 8)} {2}before_tool +guard \\[user executable\\] {2}block \\(exit 2, \\d+ ms\\)\\n {4}guard says no`,
      ),
    );
    expect(log.stdout).toMatch(/user_prompt +ctx \[user executable\] {2}continue \(exit 0/);

    const none = await acai(dirs, ["hooks", "log", "--session", "ffffffff"]);
    expect(none.stdout).toContain("No hook runs for session ffffffff");
    const json = await acai(dirs, [
      "hooks",
      "log",
      "--session",
      sessionId.slice(0, 6),
      "--json",
      "-n",
      "1",
    ]);
    const lines = json.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ session: sessionId });

    const follower = startAcai({ dirs, args: ["hooks", "log", "--follow", "-n", "0"] });
    let seen = "";
    follower.child.stdout?.on("data", (chunk: Buffer) => {
      seen += chunk.toString();
    });
    await waitFor(() => seen.includes("guard says no"));
    const auditFile = path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl");
    const last = (await readFile(auditFile, "utf8")).trim().split("\n").at(-1) as string;
    await appendFile(
      auditFile,
      `${JSON.stringify({ ...JSON.parse(last), hook: "appended-later", session: "zzzzzzzz" })}\n`,
    );
    await waitFor(() => seen.includes("appended-later"));
    follower.child.kill("SIGINT");
    const result = await follower.result;
    expect(result.exitCode).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
