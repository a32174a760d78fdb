/**
 * Asking ahead (decision 0012) end to end through `acai -p`: two persistent
 * hooks on before_tool, the second with `ask_ahead`, are asked about a call
 * at once; the decision is still the one of the chain in order (the first
 * blocks or rewrites, and that is what happens), and the second's answer
 * about a call the first blocked or rewrote is in the audit log, marked as
 * not used.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pidsWith, survivors } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, readJsonl, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-ask-ahead-");
});
afterEach(async () => {
  // Every hook process carries its path, under dirs.root, in its argv.
  for (const pid of pidsWith(dirs.root)) process.kill(pid, "SIGKILL");
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

/**
 * A persistent bash hook in `<ACAI_HOME>/hooks/` (a user hook: trusted). For
 * each request it sets `cmd` (the Bash command) and `id`, then runs `answer`,
 * which prints the answer line.
 */
async function persistentHook(
  name: string,
  meta: { priority: number; ask_ahead?: boolean },
  answer: string,
): Promise<string> {
  const metadata = JSON.stringify({
    name,
    events: ["before_tool"],
    mode: "persistent",
    timeout_ms: 10_000,
    ...meta,
  });
  const file = path.join(dirs.acaiHome, "hooks", name);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    [
      "#!/usr/bin/env bash",
      `if [ "$HOOK_ACTION" = describe ]; then echo '${metadata}'; exit 0; fi`,
      "while IFS= read -r line; do",
      '  id=$(jq -r .id <<<"$line")',
      `  cmd=$(jq -r '.tool_input.command // ""' <<<"$line")`,
      `  ${answer}`,
      "done",
      "",
    ].join("\n"),
  );
  await chmod(file, 0o755);
  return file;
}

/** Appends every command it is asked about to `log`, continues, and notes the command in its answer's `log`. */
function recorder(log: string, askAhead: boolean): Promise<string> {
  return persistentHook(
    "recorder",
    { priority: 100, ...(askAhead ? { ask_ahead: true } : {}) },
    `printf '%s\\n' "$cmd" >> '${log}'; jq -cn --argjson id "$id" --arg c "$cmd" '{id: $id, log: ("saw " + $c)}'`,
  );
}

/** Blocks `rm` commands, continues otherwise. */
function rmGuard(): Promise<string> {
  return persistentHook(
    "rm-guard",
    { priority: 900, ask_ahead: true },
    `case "$cmd" in rm\\ *) echo "{\\"id\\":$id,\\"action\\":\\"block\\",\\"reason\\":\\"no rm here\\"}";; *) echo "{\\"id\\":$id}";; esac`,
  );
}

/** Rewrites `echo original` to `echo rewritten`. */
function rewriter(): Promise<string> {
  return persistentHook(
    "rewriter",
    { priority: 900, ask_ahead: true },
    `if [ "$cmd" = "echo original" ]; then echo "{\\"id\\":$id,\\"action\\":\\"modify\\",\\"input\\":{\\"command\\":\\"echo rewritten\\"}}"; else echo "{\\"id\\":$id}"; fi`,
  );
}

async function lines(file: string): Promise<string[]> {
  const text = await readFile(file, "utf8").catch(() => "");
  return text.split("\n").filter((line) => line !== "");
}

interface AuditLine {
  hook: string;
  event: string;
  decision: string;
  log?: string;
  note?: string;
}

async function auditOf(hook: string): Promise<AuditLine[]> {
  const all = (await readJsonl(
    path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl"),
  )) as AuditLine[];
  return all.filter((line) => line.hook === hook);
}

async function run(commands: string[]) {
  server = await startFakeOpenAI([...commands.map(bash), { text: "done" }]);
  const result = await runAcai({
    dirs,
    args: ["-p", "go", "--allowedTools", "Bash", ...modelArgs("chat", server)],
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.exitCode, result.stderr).toBe(0);
  return result;
}

const UNUSED = /asked ahead of the hooks before it; not used/;

describe("a persistent hook with ask_ahead", () => {
  it("is asked about a call the hook before it blocks; the block stands and its answer is logged as unused", async () => {
    const log = path.join(dirs.root, "recorded.log");
    const guard = await rmGuard();
    const rec = await recorder(log, true);
    await run(["rm -rf x", "echo ok"]);

    // The chain's decision: rm refused (the model was told why), echo ran.
    const requests = server?.requests ?? [];
    expect(toolResultsSent(requests[1]?.body).join("\n")).toMatch(/no rm here/);
    expect(toolResultsSent(requests[2]?.body).at(-1)).toMatch(/^ok\b/);

    // The recorder was asked about both calls: about rm ahead of the guard's answer.
    expect(await lines(log)).toEqual(["rm -rf x", "echo ok"]);
    const audit = await auditOf("recorder");
    expect(audit.map((a) => [a.log, UNUSED.test(a.note ?? "")])).toEqual([
      ["saw rm -rf x", true],
      ["saw echo ok", false],
    ]);
    expect((await auditOf("rm-guard")).map((a) => a.decision)).toEqual(["block", "continue"]);

    expect(await survivors(guard)).toEqual([]);
    expect(await survivors(rec)).toEqual([]);
  });

  it("without ask_ahead it is not asked about the blocked call at all", async () => {
    const log = path.join(dirs.root, "recorded.log");
    await rmGuard();
    await recorder(log, false);
    await run(["rm -rf x", "echo ok"]);

    expect(toolResultsSent(server?.requests[1]?.body).join("\n")).toMatch(/no rm here/);
    expect(await lines(log)).toEqual(["echo ok"]);
    expect((await auditOf("recorder")).map((a) => [a.log, a.note])).toEqual([
      ["saw echo ok", undefined],
    ]);
  });

  it("is asked again after the hook before it rewrites the command; the rewritten command runs", async () => {
    const log = path.join(dirs.root, "recorded.log");
    await rewriter();
    await recorder(log, true);
    await run(["echo original"]);

    expect(toolResultsSent(server?.requests[1]?.body).at(-1)).toMatch(/^rewritten\b/);
    // Asked ahead about the original, then again about what will run.
    expect(await lines(log)).toEqual(["echo original", "echo rewritten"]);
    const audit = await auditOf("recorder");
    expect(audit.map((a) => [a.log, UNUSED.test(a.note ?? "")])).toEqual([
      ["saw echo original", true],
      ["saw echo rewritten", false],
    ]);
  });
});
