/**
 * Containment in the REPL (the real `acai` in tmux): an exit leaves none of
 * the escapees of the Bash tool and hooks; a first SIGTERM ends the session
 * (session_end hooks run), a second stops waiting for a session_end hook that
 * traps TERM and hangs — and kills it and everything else acai started.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Markers, pidsWith, survivors, waitFor } from "../process/survivors.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, CLI_PATH, makeAcaiDirs } from "../support/run-acai.js";
import { escapees, installUserHook, writeUserSettings } from "./containment-support.js";

const TMUX = "/usr/bin/tmux";
const skip = !existsSync(TMUX) || !existsSync(CLI_PATH);

const markers = new Markers();
let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;
let socket: string | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-containment-repl-");
  // Marker containment and process ids: without the OS sandbox (writeUserSettings).
  await writeUserSettings(dirs, {});
});
afterEach(async () => {
  if (socket) spawnSync(TMUX, ["-L", socket, "kill-server"]);
  socket = undefined;
  markers.killAll();
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

function q(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

function tmux(...args: string[]): string {
  return execFileSync(TMUX, ["-L", socket as string, ...args], { encoding: "utf8" });
}

/** Starts the REPL in tmux against the fake server; returns a reader of the screen. */
function startRepl(fake: FakeOpenAIServer): () => string {
  socket = `acai-containment-${process.pid}-${Date.now()}`;
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
    q(fake.url),
    // The REPL would ask before Bash: these tests are about what the call leaves behind.
    "--yes",
  ].join(" ");
  const line = `${acai}; echo "acai exited $?"; sleep 60`;
  tmux("new-session", "-d", "-x", "100", "-y", "30", "-s", "t", "-c", dirs.cwd, `sh -c ${q(line)}`);
  return () => {
    try {
      return tmux("capture-pane", "-p", "-t", "t", "-S", "-200");
    } catch {
      return "";
    }
  };
}

/** The acai process of this test (its environment names this test's ACAI_HOME). */
function acaiPid(): number | undefined {
  return pidsWith(CLI_PATH).find((pid) => {
    try {
      return readFileSync(`/proc/${pid}/environ`, "utf8").includes(`ACAI_HOME=${dirs.acaiHome}\0`);
    } catch {
      return false;
    }
  });
}

describe.skipIf(skip)("containment in the REPL", () => {
  it("/exit leaves none of the escapees of the Bash tool and a hook", async () => {
    const marker = markers.next();
    await installUserHook(dirs, {
      name: "escaper",
      events: ["after_tool"],
      body: escapees(marker, "hook", dirs.root),
    });
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Bash", input: { command: `${escapees(marker, "bash", dirs.root)}\necho ok` } },
        ],
      },
      { text: "all done" },
    ]);
    const screen = startRepl(server);
    expect(await waitFor(() => screen().includes("›") || screen().includes(">"), 15_000)).toBe(
      true,
    );
    tmux("send-keys", "-t", "t", "-l", "go");
    tmux("send-keys", "-t", "t", "Enter");
    expect(await waitFor(() => screen().includes("all done"), 15_000)).toBe(true);
    // The Bash command's escapees ended with it; the hook's live until acai exits.
    expect(pidsWith(`${marker}-bash`)).toHaveLength(0);
    expect(await waitFor(() => pidsWith(`${marker}-hook`).length === 3)).toBe(true);
    tmux("send-keys", "-t", "t", "-l", "/exit");
    tmux("send-keys", "-t", "t", "Enter");
    expect(await waitFor(() => screen().includes("acai exited 0"), 15_000)).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  }, 40_000);

  it("a second SIGTERM stops waiting for a TERM-trapping session_end hook and kills everything", async () => {
    const marker = markers.next();
    await writeUserSettings(dirs, { hookDefaults: { sessionEndBudgetMs: 600_000 } });
    await installUserHook(dirs, {
      name: "stubborn-end",
      events: ["session_end"],
      timeoutMs: 600_000,
      body: `${escapees(marker, "end", dirs.root)}\ntrap '' TERM\nexec -a ${marker}-end-hook sleep 300`,
    });
    server = await startFakeOpenAI([
      {
        toolCalls: [
          {
            name: "Bash",
            input: {
              command: `${escapees(marker, "bash", dirs.root)}\nexec -a ${marker}-shell sleep 300`,
            },
          },
        ],
      },
      { text: "unreachable" },
    ]);
    const screen = startRepl(server);
    expect(await waitFor(() => screen().includes("›") || screen().includes(">"), 15_000)).toBe(
      true,
    );
    tmux("send-keys", "-t", "t", "-l", "go");
    tmux("send-keys", "-t", "t", "Enter");
    expect(await waitFor(() => pidsWith(`${marker}-shell`).length === 1, 15_000)).toBe(true);
    const pid = acaiPid();
    if (pid === undefined) throw new Error("acai's process was not found");
    process.kill(pid, "SIGTERM");
    expect(await waitFor(() => pidsWith(`${marker}-end-hook`).length === 1, 10_000)).toBe(true);
    // The session_end hook is holding the exit (budget 600 s). A second signal stops waiting.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(acaiPid()).toBe(pid);
    process.kill(pid, "SIGTERM");
    // Far inside the hook's 600 s budget: the second signal ended the wait (no timing asserted).
    expect(await waitFor(() => screen().includes("acai exited 143"), 15_000)).toBe(true);
    expect(await survivors(marker)).toEqual([]);
  }, 60_000);
});
