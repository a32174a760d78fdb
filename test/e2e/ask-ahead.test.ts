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
import { jsonLines, modelArgs, readJsonl, STACK_TRACE, toolResultsSent } from "./helpers.js";

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

describe("hooks asked ahead whose answers are in before the chain reaches them", () => {
  it("are folded in chain order: activity, audit lines and the decision as one after another", async () => {
    const log = path.join(dirs.root, "answered.log");
    const marker = path.join(dirs.root, "last-answered");
    const answered = (name: string) => `printf '%s\\n' ${name} >> '${log}'`;
    // The first hook of the chain answers only once the last one has (bounded: 10 s).
    await persistentHook(
      "h1",
      { priority: 900, ask_ahead: true },
      `for _ in $(seq 1000); do [ -e '${marker}' ] && break; sleep 0.01; done; ${answered("h1")}; echo "{\\"id\\":$id}"`,
    );
    for (const [name, priority] of [
      ["h2", 800],
      ["h3", 700],
      ["h4", 600],
    ] as const) {
      await persistentHook(
        name,
        { priority, ask_ahead: true },
        `${answered(name)}; echo "{\\"id\\":$id,\\"log\\":\\"${name} saw $cmd\\"}"`,
      );
    }
    await persistentHook(
      "h5",
      { priority: 500, ask_ahead: true },
      `${answered("h5")}; : > '${marker}'; echo "{\\"id\\":$id,\\"action\\":\\"block\\",\\"reason\\":\\"h5 says no\\"}"`,
    );
    server = await startFakeOpenAI([bash("echo hi"), { text: "done" }]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--output-format", "stream-json", "--allowedTools", "Bash"].concat(
        modelArgs("chat", server),
      ),
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);

    // Every hook was asked at once; the last answered before the first did.
    const order = await lines(log);
    expect([...order].sort()).toEqual(["h1", "h2", "h3", "h4", "h5"]);
    expect(order.indexOf("h5")).toBeLessThan(order.indexOf("h1"));

    // The consumer saw each hook start and end in chain order, one after another.
    const activity = jsonLines(result.stdout)
      .filter((line) => line.type === "hook_start" || line.type === "hook_end")
      .map((line) => {
        const hook = (line.hook as { name: string }).name;
        return line.type === "hook_start" ? `start ${hook}` : `end ${hook} ${line.outcome}`;
      });
    expect(activity).toEqual([
      "start h1",
      "end h1 continue",
      "start h2",
      "end h2 continue",
      "start h3",
      "end h3 continue",
      "start h4",
      "end h4 continue",
      "start h5",
      "end h5 block",
    ]);
    // The decision is the chain's: the last hook's block, told to the model.
    expect(toolResultsSent(server.requests[1]?.body).join("\n")).toMatch(/h5 says no/);

    // The audit log: the event's considered line, then one line per hook in chain order.
    const audit = (await readJsonl(path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl"))) as {
      kind?: string;
      hook?: string;
      decision?: string;
      log?: string;
      hooks?: { hook: string; status: string }[];
    }[];
    expect(audit[0]?.kind).toBe("considered");
    expect(audit[0]?.hooks?.map((h) => `${h.hook} ${h.status}`)).toEqual(
      ["h1", "h2", "h3", "h4", "h5"].map((h) => `${h} planned`),
    );
    expect(audit.slice(1).map((a) => [a.hook, a.decision, a.log])).toEqual([
      ["h1", "continue", undefined],
      ["h2", "continue", "h2 saw echo hi"],
      ["h3", "continue", "h3 saw echo hi"],
      ["h4", "continue", "h4 saw echo hi"],
      ["h5", "block", undefined],
    ]);
  });
});
