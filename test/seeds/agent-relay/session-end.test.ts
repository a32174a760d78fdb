/**
 * agent-relay's onSessionEnd `inject` (seed 000: "Give agent time to process
 * and respond", `waitForResponse(5000)`), through `acai -p`: what the hook
 * injects is the prompt of one last turn, answered before the session really
 * ends, cut at the session-end budget; the end reason, the result and the
 * exit code stay what they were when the session ended.
 */
import { copyFile, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { lastUser } from "../../e2e/messaging-support.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../../support/run-acai.js";

const EXAMPLE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "examples",
  "session-end-summary",
  "relay.config.ts",
);
const ASKED = "[SESSION END] Please provide a brief summary:";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** The seed's example in the project, and a user session_end hook that records each reason it sees. */
async function setUp(turns: FakeTurn[], settings: Record<string, unknown> = {}) {
  dirs = await makeAcaiDirs("acai-seed-relay-end-");
  await copyFile(EXAMPLE, path.join(dirs.cwd, "relay.config.ts"));
  const reasons = path.join(dirs.root, "reasons.log");
  const hooks = {
    session_end: [
      {
        hooks: [
          {
            type: "command",
            command: `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>require('fs').appendFileSync('${reasons}',JSON.parse(s).reason+'\\\\n'))"`,
          },
        ],
      },
    ],
  };
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({ hooks, ...settings }),
  );
  server = await startFakeOpenAI(turns);
  return { d: dirs, s: server, reasons: () => readFile(reasons, "utf8") };
}

function run(d: AcaiDirs, s: FakeOpenAIServer, extra: string[] = []) {
  return runAcai({
    dirs: d,
    args: ["-p", "fix the login bug", "--trust-project", "--model", "openai:m", ...extra],
    baseUrl: s.url,
    timeoutMs: 60_000,
  });
}

describe("agent-relay's onSessionEnd inject, through acai -p", { timeout: 90_000 }, () => {
  it("is the prompt of one last turn the agent answers before the session ends; the end stays 'completed'", async () => {
    const { d, s, reasons } = await setUp([
      { text: "Fixed the login bug." },
      { text: "1. Fixed login. 2. Nothing. 3. None." },
    ]);
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(s.requests).toHaveLength(2);
    expect(lastUser(s.requests[0]!)).toBe("fix the login bug");
    expect(lastUser(s.requests[1]!)).toContain(ASKED);
    expect(lastUser(s.requests[1]!)).toContain("Reply, then I'll save your response.");
    // The user sees the answer to the prompt, then the agent's summary.
    expect(result.stdout).toContain("Fixed the login bug.");
    expect(result.stdout).toContain("1. Fixed login. 2. Nothing. 3. None.");
    expect(result.stdout.indexOf("Fixed the login bug.")).toBeLessThan(
      result.stdout.indexOf("1. Fixed login."),
    );
    // One session end, with the reason it had; the last turn does not end it again.
    expect(await reasons()).toBe("completed\n");
  });

  it("the result and exit code stay the run's: --output-format json reports the prompt's answer", async () => {
    const { d, s } = await setUp([{ text: "Fixed the login bug." }, { text: "summary" }]);
    const result = await run(d, s, ["--output-format", "json"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const json = JSON.parse(result.stdout) as { result: string; stop_reason: string };
    expect(json).toMatchObject({ result: "Fixed the login bug.", stop_reason: "end_turn" });
    expect(lastUser(s.requests[1]!)).toContain(ASKED);
  });

  it("is bounded: a last turn past the session-end budget is cut, said in a warning, and the run still ends as it did", async () => {
    const { d, s, reasons } = await setUp(
      // The default budget (5 s, the seed's): the session_end hooks also answer within it.
      [{ text: "Fixed the login bug." }, { text: "never finished", hangMs: 120_000 }],
    );
    const result = await run(d, s);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(lastUser(s.requests[1]!)).toContain(ASKED);
    expect(result.stderr).toContain(
      "the last turn (what session_end hooks injected) was cut after 5000 ms",
    );
    expect(result.stderr).toContain("hookDefaults.sessionEndBudgetMs");
    expect(await reasons()).toBe("completed\n");
  });

  it("an untrusted project's onSessionEnd never runs: no last turn", async () => {
    const { d, s } = await setUp([{ text: "Fixed the login bug." }, { text: "summary" }]);
    const result = await runAcai({
      dirs: d,
      args: ["-p", "fix it", "--no-project", "--model", "openai:m"],
      baseUrl: s.url,
      timeoutMs: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(s.requests).toHaveLength(1);
  });
});
