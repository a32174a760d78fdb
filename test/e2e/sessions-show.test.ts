/**
 * `acai sessions show ID` after real `acai -p` sessions (the replay model):
 * the prompts and how each turn ended, every tool call with its outcome and
 * permission answer, for each call every hook considered (ran and answered,
 * not reached, `if` that did not catch) and what the chain decided, tokens
 * and cost by the user's `pricing`, how the session ended — in words and as
 * JSON; a resumed session adds up; an unknown id is an error naming it and
 * how to list sessions; a transcript's escape sequences are printed inert.
 */
import { appendFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const HOOKS = [
  {
    type: "command",
    name: "rm-guard",
    if: "Bash(rm:*)",
    command: "cat >/dev/null; echo 'no rm here' >&2; exit 2",
  },
  { type: "command", name: "noter", command: "cat >/dev/null; exit 0" },
];

async function setUp(d: AcaiDirs): Promise<void> {
  const settings = {
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: HOOKS }] },
    pricing: { "replay:replay.json": { input: 2, output: 10 } },
  };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  const turns = [
    { tool_calls: [{ name: "Bash", input: { command: "echo fine" } }] },
    { tool_calls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
    { text: "done" },
    { text: "again done" },
  ];
  await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
}

async function sessionId(d: AcaiDirs): Promise<string> {
  const [name] = await readdir(path.join(d.acaiHome, "transcripts"));
  const id = /^\d{4}-\d{2}-\d{2}-(.+)\.jsonl$/.exec(name ?? "")?.[1];
  if (id === undefined) throw new Error(`no transcript: ${name}`);
  return id;
}

interface ShownJson {
  session_id: string;
  runs: number;
  end: { reason: string } | null;
  tokens: { input: number; output: number; total: number };
  model_requests: number;
  cost_usd: number | null;
  turns: { turn: number; prompt: string; stop_reason: string | null }[];
  tool_calls: {
    tool_call_id: string;
    tool: string;
    input: unknown;
    outcome: string;
    detail?: string;
    permission: string | null;
    hooks: {
      event: string;
      decided: string;
      hooks: { hook: string; status: string; answered?: string; why?: string }[];
    }[];
  }[];
  hook_runs: number;
  skipped_lines: number;
}

describe("acai sessions show", () => {
  it("summarizes a session: prompts, tool calls and their hooks, tokens, cost, end", async () => {
    const d = await makeAcaiDirs("acai-sessions-show-");
    dirs = d;
    await setUp(d);
    const run = await runAcai({
      args: ["-p", "go \u001b[31mred", "--model", "replay:replay.json", "--yes"],
      dirs: d,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const id = await sessionId(d);

    const json = await runAcai({ args: ["sessions", "show", id.slice(0, 8), "--json"], dirs: d });
    expect(json.exitCode, json.stderr).toBe(0);
    const shown = JSON.parse(json.stdout) as ShownJson;
    expect(shown.session_id).toBe(id);
    expect(shown.runs).toBe(1);
    expect(shown.end?.reason).toBe("completed");
    expect(shown.turns).toEqual([
      expect.objectContaining({ turn: 1, prompt: "go \u001b[31mred", stop_reason: "end_turn" }),
    ]);
    expect(shown.model_requests).toBe(3);
    expect(shown.tokens.input).toBeGreaterThan(0);
    expect(shown.cost_usd).toBeCloseTo(
      (shown.tokens.input * 2 + shown.tokens.output * 10) / 1e6,
      10,
    );
    const [fine, rm] = shown.tool_calls;
    expect(fine).toMatchObject({ tool: "Bash", input: { command: "echo fine" }, outcome: "ok" });
    expect(fine?.permission).toBe("allowed");
    expect(fine?.hooks).toEqual([
      {
        event: "before_tool",
        decided: "go on",
        hooks: [
          expect.objectContaining({ hook: "rm-guard", status: "not_run", why: "if" }),
          expect.objectContaining({ hook: "noter", status: "ran", answered: "continue" }),
        ],
      },
    ]);
    expect(rm).toMatchObject({ outcome: "blocked", detail: "no rm here", permission: null });
    expect(rm?.hooks).toEqual([
      {
        event: "before_tool",
        decided: "block by rm-guard: no rm here",
        hooks: [
          expect.objectContaining({ hook: "rm-guard", status: "ran", answered: "block" }),
          expect.objectContaining({ hook: "noter", status: "not_reached" }),
        ],
      },
    ]);
    expect(shown.hook_runs).toBe(2);

    const text = await runAcai({ args: ["sessions", "show", id], dirs: d });
    expect(text.exitCode, text.stderr).toBe(0);
    expect(text.stdout).not.toContain("\u001b");
    expect(text.stdout).toContain(`Session ${id}`);
    expect(text.stdout).toContain("ended:      completed");
    expect(text.stdout).toMatch(/cost \$0\.\d{4}/);
    expect(text.stdout).toMatch(/1\. "go .*red" → end_turn, 3 steps/);
    expect(text.stdout).toMatch(/Bash: echo fine → ok \(\d+ ms\); permission asked: allowed/);
    expect(text.stdout).toMatch(/rm-guard .*not run \(if\) — "if": "Bash\(rm:\*\)" does not catch/);
    expect(text.stdout).toMatch(/Bash: rm -rf build → blocked \(\d+ ms\): no rm here/);
    expect(text.stdout).toMatch(/noter .*not reached: the chain ended at rm-guard's block/);
    expect(text.stdout).toContain("decided: block by rm-guard: no rm here");
  });

  it("adds up a resumed session and skips lines it cannot read", async () => {
    const d = await makeAcaiDirs("acai-sessions-show-");
    dirs = d;
    await setUp(d);
    const turns = [{ text: "first" }];
    await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
    const first = await runAcai({ args: ["-p", "one", "--model", "replay:replay.json"], dirs: d });
    expect(first.exitCode, first.stderr).toBe(0);
    const id = await sessionId(d);
    const [name] = await readdir(path.join(d.acaiHome, "transcripts"));
    const transcript = path.join(d.acaiHome, "transcripts", name ?? "");
    await appendFile(
      transcript,
      `not json\n${JSON.stringify({ type: "event", time: "x", event: { type: "turn_end", turn: "one" } })}\n`,
    );
    const second = await runAcai({
      args: ["-p", "two", "--resume", id, "--model", "replay:replay.json"],
      dirs: d,
    });
    expect(second.exitCode, second.stderr).toBe(0);

    const json = await runAcai({ args: ["sessions", "show", "--json", id], dirs: d });
    expect(json.exitCode, json.stderr).toBe(0);
    const shown = JSON.parse(json.stdout) as ShownJson;
    expect(shown.runs).toBe(2);
    expect(shown.turns.map((t) => t.prompt)).toEqual(["one", "two"]);
    expect(shown.tool_calls).toEqual([]);
    expect(shown.skipped_lines).toBe(2);
    const text = await runAcai({ args: ["sessions", "show", id], dirs: d });
    expect(text.stdout).toContain("(started 2 times: resumed)");
    expect(text.stdout).toContain("2 transcript lines were not readable");
  });

  it("names an unknown id and how to list sessions, exit 2", async () => {
    const d = await makeAcaiDirs("acai-sessions-show-");
    dirs = d;
    const none = await runAcai({ args: ["sessions", "show", "nope-123"], dirs: d });
    expect(none.exitCode).toBe(2);
    expect(none.stdout).toBe("");
    expect(none.stderr).toContain('acai sessions show "nope-123": no session with that id in');
    expect(none.stderr).toContain("acai sessions lists this project's sessions");
  });
});
