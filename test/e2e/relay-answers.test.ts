/**
 * agent-relay answers through `acai -p` against the scripted model server:
 * `inject` reaches the model (what the server records), `stop: true` keeps the
 * hooks after it from running, `log` reaches the audit log, `suppress` where it
 * cannot apply and a `sendMessage` that cannot be delivered are warnings, never silence.
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** A settings hook entry that prints `answer` (JSON) and touches $DIR/<name>.ran. */
function answering(name: string, answer: unknown, dir: string) {
  const json = JSON.stringify(answer).replaceAll("'", "'\\''");
  return {
    hooks: [{ type: "command", name, command: `touch '${dir}/${name}.ran'; echo '${json}'` }],
  };
}

describe("agent-relay answers, through acai -p", () => {
  it("inject reaches the model, stop: true skips later hooks, log is audited, the rest warns", async () => {
    dirs = await makeAcaiDirs("acai-relay-e2e-");
    const d = dirs.root;
    const hooks = {
      UserPromptSubmit: [
        answering(
          "relay-inject",
          { inject: "[CONTEXT] staging is frozen", log: "RELAY-LOG", stop: true },
          d,
        ),
        answering("after-stop", { inject: "NEVER-SENT" }, d),
      ],
      PreToolUse: [answering("quiet", { suppress: true }, d)],
      PostToolUse: [answering("alert", { sendMessage: { to: "Coordinator", content: "done" } }, d)],
    };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "done" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "deploy it", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("done\n");
    const first = JSON.stringify(server.requests[0]?.body);
    expect(first).toContain("[CONTEXT] staging is frozen");
    expect(first).not.toContain("NEVER-SENT");
    expect(existsSync(path.join(d, "relay-inject.ran"))).toBe(true);
    expect(existsSync(path.join(d, "after-stop.ran"))).toBe(false);
    expect(result.stderr).toContain(
      'hook "quiet" answered suppress, which before_tool cannot take',
    );
    // The session's relay sends it: to an agent that never ran here, it is refused, and said.
    expect(result.stderr).toContain(
      'hook "alert" asked to send a message to "Coordinator", which could not be sent (no agent named Coordinator has run here',
    );
    const audit = await readFile(path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
    expect(audit).toContain("RELAY-LOG");
  });
});
