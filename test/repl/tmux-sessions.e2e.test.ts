/**
 * `/compact` and `/resume` in the real REPL (dist/cli/main.js in tmux, keys
 * sent with send-keys, the screen read with capture-pane), against the
 * scripted OpenAI server.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeOpenAIServer,
  type FakeScript,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, CLI_PATH, makeAcaiDirs, runAcai } from "../support/run-acai.js";

const TMUX = "/usr/bin/tmux";
const skipReason = !existsSync(TMUX)
  ? "tmux is not installed"
  : !existsSync(CLI_PATH)
    ? "dist/ is not built"
    : "";

class Term {
  readonly socket =
    `acai-sessions-${process.pid}-${Date.now()}-${String(Math.random()).slice(2, 8)}`;
  tmux(...args: string[]): string {
    return execFileSync(TMUX, ["-L", this.socket, ...args], { encoding: "utf8" });
  }
  start(command: string, cwd: string): void {
    this.tmux("new-session", "-d", "-x", "120", "-y", "40", "-s", "t", "-c", cwd, command);
  }
  line(text: string): void {
    this.tmux("send-keys", "-t", "t", "-l", text);
    this.tmux("send-keys", "-t", "t", "Enter");
  }
  screen(): string {
    try {
      return this.tmux("capture-pane", "-p", "-t", "t", "-S", "-300");
    } catch {
      return "";
    }
  }
  async see(what: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const start = Date.now();
    for (;;) {
      const screen = this.screen();
      if (typeof what === "string" ? screen.includes(what) : what.test(screen)) return screen;
      if (Date.now() - start > timeoutMs) {
        throw new Error(`timed out waiting for ${String(what)}; screen:\n${screen}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  kill(): void {
    spawnSync(TMUX, ["-L", this.socket, "kill-server"]);
  }
}

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let term: Term | undefined;
beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-repl-sessions-");
});
afterEach(async () => {
  term?.kill();
  term = undefined;
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

async function startRepl(s: FakeOpenAIServer): Promise<Term> {
  const env = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: dirs.home,
    ACAI_HOME: dirs.acaiHome,
    LANG: "C.UTF-8",
    TERM: "xterm-256color",
    NO_COLOR: "1",
    OPENAI_API_KEY: "test-key",
  };
  const acai = [
    "env",
    "-i",
    ...Object.entries(env).map(([k, v]) => q(`${k}=${v}`)),
    q(process.execPath),
    q(CLI_PATH),
    "--model",
    "openai:fake-model",
    "--base-url",
    q(s.url),
  ].join(" ");
  const t = new Term();
  t.start(`sh -c ${q(`${acai}; echo "acai exited $?"; sleep 60`)}`, dirs.cwd);
  term = t;
  return t;
}

const sent = (i: number) => JSON.stringify(server?.requests[i]?.body?.messages ?? []);

describe.skipIf(skipReason !== "")(`sessions in the REPL ${skipReason}`, () => {
  it("/compact summarises the conversation: pre_compact gets the instructions, the next request carries the summary", async () => {
    const log = path.join(dirs.root, "pre.jsonl");
    const hook = path.join(dirs.root, "pre.sh");
    await writeFile(hook, `#!/bin/sh\ncat >> '${log}'\n`);
    await chmod(hook, 0o755);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: { PreCompact: [{ hooks: [{ type: "command", command: `'${hook}'` }] }] },
      }),
    );
    const script: FakeScript = [
      { text: "first answer" },
      { text: "SUMMARY-TEXT of the first exchange" },
      { text: "second answer" },
    ];
    server = await startFakeOpenAI(script);
    const t = await startRepl(server);
    await t.see("fake-model");
    t.line("first question");
    await t.see("first answer");
    t.line("/compact keep the names");
    await t.see(/Compacted the conversation \(manual\): ~\d+ → ~\d+ tokens/);
    t.line("second question");
    await t.see("second answer");
    expect(sent(1)).toContain("keep the names");
    expect(sent(2)).toContain("SUMMARY-TEXT of the first exchange");
    expect(sent(2)).not.toContain("first question");
    const payload = JSON.parse(await readFile(log, "utf8")) as Record<string, unknown>;
    expect(payload).toMatchObject({
      event: "pre_compact",
      trigger: "manual",
      custom_instructions: "keep the names",
    });
    t.line("/exit");
    await t.see("acai exited 0");
  }, 60_000);

  it("/resume lists this project's sessions and continues the one picked", async () => {
    server = await startFakeOpenAI([{ text: "earlier answer" }, { text: "resumed answer" }]);
    const earlier = await runAcai({
      args: [
        "-p",
        "the earlier session prompt",
        "--model",
        "openai:fake-model",
        "--base-url",
        server.url,
      ],
      dirs,
    });
    expect(earlier.exitCode).toBe(0);
    const t = await startRepl(server);
    await t.see("fake-model");
    t.line("/resume");
    await t.see("the earlier session prompt");
    await t.see("1 turn");
    t.line("/resume 1");
    await t.see("Resuming session");
    t.line("follow-up question");
    await t.see("resumed answer");
    expect(sent(1)).toContain("the earlier session prompt");
    expect(sent(1)).toContain("earlier answer");
    expect(sent(1)).toContain("follow-up question");
    t.line("/exit");
    await t.see("acai exited 0");
  }, 60_000);
});
