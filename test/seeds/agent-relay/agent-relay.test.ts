/**
 * agent-relay's hooks API (seed 000), its own examples as its users write
 * them (examples/, copied as a relay.config.ts into the project or into
 * ACAI_HOME), each through `acai -p` against the scripted model server, with
 * the effect the seed describes: what an `inject` says reaches the model, a
 * `log` reaches the audit log, `sendMessage` reaches the named agent, a
 * pattern handler answers the agent, a project's relay.config runs only once
 * the project is trusted, and a capability acai cannot grant refuses the
 * config with a message naming it.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs } from "../../e2e/helpers.js";
import {
  type FakeOpenAIServer,
  type FakeTurn,
  startFakeOpenAI,
} from "../../support/fake-openai-server.js";
import { type AcaiDirs, type AcaiResult, makeAcaiDirs, runAcai } from "../../support/run-acai.js";

const EXAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), "examples");

let dirs: AcaiDirs | undefined;
const servers: FakeOpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await dirs?.cleanup();
  dirs = undefined;
});

/** Copies an example's relay.config.ts into the project (default) or ACAI_HOME. */
async function install(d: AcaiDirs, example: string, where: "project" | "user" = "project") {
  const to = where === "project" ? d.cwd : d.acaiHome;
  await copyFile(path.join(EXAMPLES, example, "relay.config.ts"), path.join(to, "relay.config.ts"));
}

/** `acai -p PROMPT` against a scripted server; the server's requests are what reached the model. */
async function session(
  d: AcaiDirs,
  turns: FakeTurn[],
  extra: string[] = [],
): Promise<{ result: AcaiResult; requests: string[] }> {
  const server = await startFakeOpenAI(turns);
  servers.push(server);
  const result = await runAcai({
    dirs: d,
    args: ["-p", "go", "--yes", ...extra, ...modelArgs("chat", server)],
    baseUrl: server.url,
    timeoutMs: 30_000,
  });
  return { result, requests: server.requests.map((r) => JSON.stringify(r.body)) };
}

async function audit(d: AcaiDirs): Promise<string> {
  return readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8").catch(() => "");
}

describe("agent-relay's examples, through acai -p", () => {
  it("Example 1 (user's relay.config.ts): onSessionStart's inject reaches the model, its log the audit log", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "1-memory-integration", "user");
    const { result, requests } = await session(dirs, [{ text: "done" }], ["--name", "Reviewer"]);
    expect(result.exitCode, result.stderr).toBe(0);
    const project = path.basename(dirs.cwd);
    expect(requests[0]).toContain(`[CONTEXT] Working in ${project} (${dirs.cwd})`);
    expect(await audit(dirs)).toContain("Session started for Reviewer");
  });

  it("Example 4: the pattern handler (target, message, ctx) answers @ticket:high with its inject", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "4-custom-pattern");
    const { result, requests } = await session(
      dirs,
      [
        { text: "Filing it.\n@ticket:high Fix authentication timeout in login flow" },
        { text: "done" },
      ],
      ["--trust-project"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("slice is not a function");
    expect(requests[0]).not.toContain("Ticket logged");
    expect(requests[1]).toContain(
      "Ticket logged: [high] Fix authentication timeout in login flow...",
    );
    expect(await audit(dirs)).toContain("ticket:high - Fix authentication timeout in login flow");
  });

  it("a project's relay.config.ts is in the trusted set: untrusted, nothing of it runs", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "1-memory-integration");
    const { result, requests } = await session(dirs, [{ text: "done" }]);
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("relay.config.ts");
    expect(requests).toEqual([]);
    // Trusted, the same file runs.
    const trusted = await session(dirs, [{ text: "done" }], ["--trust-project"]);
    expect(trusted.result.exitCode, trusted.result.stderr).toBe(0);
    expect(trusted.requests[0]).toContain("[CONTEXT] Working in");
  });

  it("Example 5: only the agent named Coordinator is put in coordinator mode", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "5-coordinator");
    const coordinator = await session(
      dirs,
      [{ text: "done" }],
      ["--trust-project", "--name", "Coordinator"],
    );
    expect(coordinator.result.exitCode, coordinator.result.stderr).toBe(0);
    expect(coordinator.requests[0]).toContain("[COORDINATOR MODE]");
    const other = await session(dirs, [{ text: "done" }], ["--trust-project", "--name", "Dev"]);
    expect(other.result.exitCode, other.result.stderr).toBe(0);
    expect(other.requests[0]).not.toContain("[COORDINATOR MODE]");
  });

  it("Example 2: onOutput's sendMessage reaches the Coordinator agent", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    // The Coordinator has run here before: a message to it is kept until it runs again.
    const first = await session(dirs, [{ text: "ok" }], ["--name", "Coordinator"]);
    expect(first.result.exitCode, first.result.stderr).toBe(0);
    await install(dirs, "2-error-alerting");
    const worker = await session(
      dirs,
      [{ text: "Error: the build FAILED" }],
      ["--trust-project", "--name", "Builder"],
    );
    expect(worker.result.exitCode, worker.result.stderr).toBe(0);
    expect(await audit(dirs)).toContain("Error detected: Error: the build FAILED");
    await writeFile(path.join(dirs.cwd, "relay.config.ts"), "export default {};\n");
    const again = await session(
      dirs,
      [{ text: "looking" }, { text: "done" }],
      ["--trust-project", "--name", "Coordinator"],
    );
    expect(again.result.exitCode, again.result.stderr).toBe(0);
    const project = path.basename(dirs.cwd);
    expect(again.requests.join("\n")).toContain(`Alert: Builder encountered error in ${project}`);
  });

  it("Example 7: every lifecycle hook's log reaches the audit log", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "7-debug-mode");
    const { result } = await session(
      dirs,
      [{ text: "All tests pass" }],
      ["--trust-project", "--name", "Dbg"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    const log = await audit(dirs);
    expect(log).toContain(`START: Dbg in ${dirs.cwd}`);
    expect(log).toContain("OUTPUT[Dbg]: All tests pass");
    expect(log).toContain("END: Dbg");
  });

  it("options.idleThreshold sets the idle time; onIdle's inject reaches the model", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    const text = await readFile(path.join(EXAMPLES, "idle-threshold", "relay.config.ts"), "utf8");
    // The seed's 60 s, made 300 ms so the test does not wait a minute.
    await writeFile(
      path.join(dirs.cwd, "relay.config.ts"),
      text.replace("idleThreshold: 60000", "idleThreshold: 300"),
    );
    const { result, requests } = await session(
      dirs,
      [{ toolCalls: [{ name: "Bash", input: { command: "sleep 3" } }] }, { text: "still here" }],
      ["--trust-project"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(requests[0]).not.toContain("STATUS CHECK");
    expect(requests[1]).toContain("[STATUS CHECK] Are you making progress?");
  });

  it("Full memory integration: onSessionStart's ctx.memory.search finds what @memory:save saved", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "full-memory");
    const saving = await session(
      dirs,
      [{ text: "@memory:save user preferences: TypeScript over JavaScript" }, { text: "done" }],
      ["--trust-project"],
    );
    expect(saving.result.exitCode, saving.result.stderr).toBe(0);
    // The seed's mem0 backend is not acai's: said, and the built-in store is used.
    expect(saving.result.stderr).toContain('memory.backend "mem0"');
    const next = await session(dirs, [{ text: "done" }], ["--trust-project"]);
    expect(next.result.exitCode, next.result.stderr).toBe(0);
    expect(next.requests[0]).toContain("[USER PREFERENCES]");
    expect(next.requests[0]).toContain("- user preferences: TypeScript over JavaScript");
  });

  it("the programmatic API: relay.pattern (target, message, ctx) and relay.on('sessionStart') with ctx.inject", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    const plugins = path.join(dirs.cwd, ".acai", "plugins");
    await mkdir(plugins, { recursive: true });
    await copyFile(
      path.join(EXAMPLES, "programmatic-api", "relay.ts"),
      path.join(plugins, "relay.ts"),
    );
    const { result, requests } = await session(
      dirs,
      [{ text: "@deploy:staging Release v1.2.3" }, { text: "done" }],
      ["--trust-project", "--name", "MyAgent"],
    );
    expect(result.exitCode, result.stderr).toBe(0);
    expect(requests[0]).toContain("Your memories:\\n(none yet for this agent)");
    expect(requests[1]).toContain("Deployed to staging");
  });

  it("a capability acai cannot grant refuses the whole config, naming it and what to do", async () => {
    dirs = await makeAcaiDirs("acai-seed-relay-");
    await install(dirs, "capabilities", "user");
    const { result, requests } = await session(dirs, [{ text: "done" }]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toContain("relay.config.ts");
    expect(result.stderr).toContain("capabilities.allowNetworkInHooks");
    expect(result.stderr).toContain("settings.json");
    expect(requests[0]).not.toContain("CAPABLE-HOOK-RAN");
  });
});
