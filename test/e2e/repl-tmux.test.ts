/**
 * The real `acai` (dist/bundle/main.js) in a real terminal: tmux sessions of
 * 100x30, keys sent with send-keys, the screen read with capture-pane. The
 * model is the scripted fake OpenAI server.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeScript,
  scriptBySystemPrompt,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs } from "../support/run-acai.js";
import {
  replCommand,
  shellQuote,
  tmuxSkipReason as skipReason,
  Term,
} from "../support/tmux-term.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-e2e-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const q = shellQuote;

/** Starts acai in tmux (100x30); the shell line prints the exit code when acai ends. */
async function startAcai(script: FakeScript, extraArgs: string[] = []): Promise<Term> {
  server = await startFakeOpenAI(script);
  const args = ["--model", "openai:fake-model", "--base-url", server.url, ...extraArgs];
  const t = new Term({ columns: 100, rows: 30 });
  t.start(replCommand(dirs, args, { OPENAI_BASE_URL: server.url }), dirs.cwd);
  term = t;
  return t;
}

async function userSettingsHook(event: string, matcher: string | undefined, command: string) {
  const file = path.join(dirs.acaiHome, "settings.json");
  await writeFile(
    file,
    JSON.stringify({
      hooks: {
        [event]: [{ ...(matcher ? { matcher } : {}), hooks: [{ type: "command", command }] }],
      },
    }),
  );
}

function processesMatching(marker: string): string[] {
  const out = spawnSync("ps", ["-eo", "pid,args"], { encoding: "utf8" }).stdout ?? "";
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

describe.skipIf(skipReason !== "")(`acai REPL in tmux ${skipReason}`, () => {
  it("a prompt streams text and shows a tool block; Ctrl-D runs session_end hooks and exits 0", async () => {
    const marker = path.join(dirs.root, "session-ended");
    await userSettingsHook("SessionEnd", undefined, `touch ${q(marker)}`);
    const t = await startAcai([
      {
        text: "Let me run it.",
        toolCalls: [{ name: "Bash", input: { command: "echo tool-said-hi" } }],
      },
      { text: "All done: the tool said hi." },
    ]);
    await t.see("ask anything");
    t.text("run the echo");
    t.keys("Enter");
    // Bash asks first (default mode, no rule allows it): the call waits for y/n.
    await t.see("? permission to run Bash echo tool-said-hi");
    expect(t.screen()).toContain("no rule allows Bash in default mode");
    expect(t.screen()).toContain("waiting for your permission");
    t.keys("y");
    await t.see("All done: the tool said hi.");
    const screen = t.screen();
    expect(screen).toContain("✓ you allowed Bash echo tool-said-hi");
    expect(screen).toContain("Let me run it.");
    expect(screen).toMatch(/✓ Bash echo tool-said-hi done \d+ms \[1\]/);
    expect(screen).toContain("⎿ tool-said-hi");
    await t.see(/fake-model · last turn/);
    t.keys("C-d");
    await t.see("acai exited 0");
    expect(existsSync(marker)).toBe(true);
  });

  it("a Bash call the user denies does not run, and the model is told why", async () => {
    const marker = path.join(dirs.root, "ran.txt");
    const t = await startAcai([
      { toolCalls: [{ name: "Bash", input: { command: `touch ${q(marker)}` } }] },
      { text: "Understood, I will not touch it." },
    ]);
    await t.see("ask anything");
    t.text("touch the file");
    t.keys("Enter");
    await t.see("? permission to run Bash touch");
    t.keys("n");
    await t.see("Understood, I will not touch it.");
    const screen = t.screen();
    expect(screen).toContain("✗ you denied Bash touch");
    expect(screen).toMatch(/⊘ Bash touch .* blocked/);
    expect(existsSync(marker)).toBe(false);
    const told = JSON.stringify(server?.requests[1]?.body);
    expect(told).toContain("Permission denied: the user said no to this Bash call");
  });

  it("a hook blocks a command: the screen shows its name and reason", async () => {
    const hook = path.join(dirs.root, "no-rm.sh");
    await writeFile(hook, "#!/bin/sh\necho 'rm is not allowed here' >&2\nexit 2\n");
    await chmod(hook, 0o755);
    await userSettingsHook("PreToolUse", "Bash", hook);
    const t = await startAcai([
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { text: "Understood, not deleting." },
    ]);
    await t.see("ask anything");
    t.text("clean the build");
    t.keys("Enter");
    await t.see("Understood, not deleting.");
    const screen = t.screen();
    expect(screen).toMatch(/⚑ hook \S+ blocked before_tool: rm is not allowed here/);
    expect(screen).toMatch(/⊘ Bash rm -rf build blocked/);
  });

  it("Esc during a slow model stream returns to the prompt and the session stays usable", async () => {
    const t = await startAcai([
      { text: "streaming slowly and then", hangMs: 30_000 },
      { text: "second answer" },
    ]);
    await t.see("ask anything");
    t.text("slow one");
    t.keys("Enter");
    await t.see("Esc aborts");
    const started = Date.now();
    t.keys("Escape");
    await t.see("■ turn aborted", 5000);
    expect(Date.now() - started).toBeLessThan(3000);
    await t.see("ask anything");
    t.text("again");
    t.keys("Enter");
    await t.see("second answer");
    t.keys("C-c");
    t.keys("C-c");
    await t.see("acai exited 0");
  });

  // The session wraps the prompts to tell the interceptor the current turn's signal.
  it("Esc during a slow hook returns to the prompt with no hook process left", async () => {
    const hook = path.join(dirs.root, "slow-hook-e2e.sh");
    // A duration unique to this run marks the hook's process in `ps`.
    const sleeper = `sleep 29.${String(process.pid).padStart(6, "0")}${Date.now() % 1000}`;
    await writeFile(hook, `#!/bin/sh\nexec ${sleeper}\n`);
    await chmod(hook, 0o755);
    await userSettingsHook("PreToolUse", "Bash", hook);
    const t = await startAcai([
      { toolCalls: [{ name: "Bash", input: { command: "echo x" } }] },
      { text: "ok" },
    ]);
    await t.see("ask anything");
    t.text("go");
    t.keys("Enter");
    await t.see(/hook \S+ before_tool/);
    // The hook is shown as it starts; its shell may not have exec'd the sleep yet.
    for (let i = 0; i < 200 && processesMatching(sleeper).length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
    }
    expect(processesMatching(sleeper).length).toBeGreaterThan(0);
    try {
      t.keys("Escape");
      await t.see("ask anything", 3000);
      await t.see("■ turn aborted", 3000);
      expect(processesMatching(sleeper)).toEqual([]);
    } finally {
      // Whatever happened, leave no sleeping hook behind (only the ones this test started).
      for (const line of processesMatching(sleeper)) {
        const pid = Number.parseInt(line.trim().split(/\s+/)[0] ?? "", 10);
        if (pid > 0) spawnSync("kill", ["-9", String(pid)]);
      }
    }
  });

  it("untrusted project hooks: the trust screen lists them; trusting runs them", async () => {
    const marker = path.join(dirs.root, "project-hook-ran");
    const settings = path.join(dirs.cwd, ".acai", "settings.json");
    await mkdir(path.dirname(settings), { recursive: true });
    await writeFile(
      settings,
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${q(marker)}` }] }],
        },
      }),
    );
    const t = await startAcai(() => ({ text: "answered" }));
    const screen = await t.see("This project has hooks, tools or settings you have not trusted");
    expect(screen).toContain("user_prompt");
    expect(screen).toContain("touch");
    t.keys("t");
    await t.see("ask anything");
    t.text("hi");
    t.keys("Enter");
    await t.see("answered");
    expect(existsSync(marker)).toBe(true);
    t.keys("C-d");
    await t.see("acai exited 0");
  });

  it("untrusted project hooks: running without them shows the banner and runs none", async () => {
    const marker = path.join(dirs.root, "project-hook-ran");
    const settings = path.join(dirs.cwd, ".acai", "settings.json");
    await mkdir(path.dirname(settings), { recursive: true });
    await writeFile(
      settings,
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${q(marker)}` }] }],
        },
      }),
    );
    const t = await startAcai(() => ({ text: "answered" }));
    await t.see("This project has hooks, tools or settings you have not trusted");
    t.keys("n");
    await t.see("Project hooks, tools and settings are off for this session");
    t.text("hi");
    t.keys("Enter");
    await t.see("answered");
    expect(existsSync(marker)).toBe(false);
    t.keys("C-d");
    await t.see("acai exited 0");
  });

  it("a 401 from the provider is printed once, and the session stays usable", async () => {
    const t = await startAcai([{ status: 401 }, { text: "second answer" }]);
    await t.see("ask anything");
    t.text("hi");
    t.keys("Enter");
    await t.see("■ turn failed");
    await t.see("ask anything");
    const screen = t.screen();
    expect(screen.match(/Incorrect API key provided/g)).toHaveLength(1);
    t.text("again");
    t.keys("Enter");
    await t.see("second answer");
    t.keys("C-d");
    await t.see("acai exited 0");
  });

  it("a bad settings file: the message names the file and acai exits 2 (as acai -p)", async () => {
    const file = path.join(dirs.acaiHome, "settings.json");
    await writeFile(file, "{ not json");
    const t = await startAcai([{ text: "never" }]);
    const screen = await t.see("acai exited 2");
    expect(screen.replace(/\n/g, "")).toContain(file);
    expect(server?.requests ?? []).toEqual([]);
  });

  it("assistant Markdown is rendered, not shown raw (streamed through the real acai)", async () => {
    const text = [
      "## Plan",
      "Run **all** tests with `npm test`.",
      "",
      "```sh",
      "npm test",
      "```",
      "",
      "| Step | Time |",
      "|------|-----:|",
      "| build | 20s |",
      "| test | 3s |",
      "",
      "That is all.",
    ].join("\n");
    const t = await startAcai([{ text, chunkSize: 5 }]);
    await t.see("ask anything");
    t.text("plan?");
    t.keys("Enter");
    await t.see("That is all.");
    const lines = t
      .screen()
      .split("\n")
      .map((line) => line.trimEnd());
    const from = lines.indexOf("Plan");
    expect(from).toBeGreaterThan(-1);
    expect(lines.slice(from, from + 12)).toEqual([
      "Plan",
      "Run all tests with `npm test`.",
      "",
      "  ┌ sh",
      "  │ npm test",
      "  └",
      "",
      "Step  │ Time",
      "──────┼─────",
      "build │  20s",
      "test  │   3s",
      "",
    ]);
    expect(t.screen()).not.toMatch(/##|\*\*|```/);
  });

  it("a subagent shows nested under its Task call, live, then collapsed; /expand shows its lines", async () => {
    const t = await startAcai(
      scriptBySystemPrompt(
        [
          {
            system: "You are a subagent",
            turns: [
              { toolCalls: [{ name: "Bash", input: { command: "echo sub-said-hi" } }] },
              { text: "SUB-DONE: it said hi.", delayMs: 4000 },
            ],
          },
        ],
        [
          {
            toolCalls: [
              {
                name: "Task",
                input: {
                  description: "look around",
                  prompt: "run echo",
                  subagent_type: "general-purpose",
                },
              },
            ],
          },
          { text: "PARENT-DONE." },
        ],
      ),
      // The subagent runs under the session's policy: its Bash call needs the rule too.
      ["--allowedTools", "Bash(echo sub-said-hi)"],
    );
    await t.see("ask anything");
    t.text("delegate");
    t.keys("Enter");
    // Live: the subagent's header and its finished tool call, nested (indented) under the Task call.
    const live = await t.see("✓ Bash echo sub-said-hi");
    expect(live).toMatch(/^ {2}↳ subagent general-purpose · look around/m);
    expect(live).toMatch(/^ {4}✓ Bash echo sub-said-hi/m);
    await t.see("PARENT-DONE.");
    const done = t.screen();
    expect(done).toMatch(/✓ Task look around done .*\[1\]/);
    expect(done).toContain("⎿ SUB-DONE: it said hi.");
    // Collapsed: one line, its tool calls behind /expand.
    expect(done).toMatch(
      /↳ subagent general-purpose · look around done \S+, 1 tool call \(\/expand 2\)/,
    );
    expect(done).not.toMatch(/✓ Bash echo sub-said-hi/);
    t.text("/expand 2");
    t.keys("Enter");
    const expanded = await t.see("[2] subagent general-purpose · look around");
    expect(expanded).toContain("✓ Bash echo sub-said-hi");
    expect(expanded).toContain("SUB-DONE: it said hi.");
  });

  it("Esc while a subagent's tool runs reaches it: the Task call ends interrupted, nothing left running", async () => {
    const marker = `acai-subagent-esc-${process.pid}-${Date.now()}`;
    const t = await startAcai(
      scriptBySystemPrompt(
        [
          {
            system: "You are a subagent",
            turns: [
              { toolCalls: [{ name: "Bash", input: { command: `exec -a ${marker} sleep 300` } }] },
            ],
          },
        ],
        [
          {
            toolCalls: [
              {
                name: "Task",
                input: { description: "wait", prompt: "sleep", subagent_type: "general-purpose" },
              },
            ],
          },
          { text: "unreachable" },
        ],
      ),
      // The subagent runs under the session's policy: its Bash call needs the rule too.
      ["--allowedTools", "Bash"],
    );
    await t.see("ask anything");
    t.text("delegate");
    t.keys("Enter");
    await t.see(`Bash exec -a ${marker}`);
    try {
      for (let i = 0; i < 100 && processesMatching(marker).length === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(processesMatching(marker).length).toBeGreaterThan(0);
      t.keys("Escape");
      await t.see("■ turn aborted");
      const screen = t.screen();
      expect(screen).toMatch(/■ Task wait interrupted/);
      expect(screen).toMatch(/↳ subagent general-purpose · wait aborted/);
      for (let i = 0; i < 50 && processesMatching(marker).length > 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(processesMatching(marker)).toEqual([]);
    } finally {
      for (const line of processesMatching(marker)) {
        const pid = Number.parseInt(line.trim().split(/\s+/)[0] ?? "", 10);
        if (pid > 0) spawnSync("kill", ["-9", String(pid)]);
      }
    }
  });
});
