/**
 * A user plugin set to `isolation: "none"` (docs/plugins.md, decision 0049)
 * through `acai -p`: it runs in acai's own thread and blocks a call; its
 * place among other hooks (a settings command hook, a plugin in a worker) is
 * the same as a worker plugin's; a handler that throws fails as a worker
 * plugin's does (open: a warning and the call goes on; closed: a block naming
 * the hook); one that never answers is abandoned at its timeout; and a
 * project's plugin of the same name, or a project's own `plugins` setting,
 * never runs in acai's thread.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

async function write(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

function run(d: AcaiDirs, s: FakeOpenAIServer, extra: string[] = []) {
  return runAcai({
    dirs: d,
    args: ["-p", "go", "--yes", ...extra, ...modelArgs("chat", s)],
    baseUrl: s.url,
    env: { HOOK_E2E_DIR: d.root },
    timeoutMs: 30_000,
  });
}

/** A plugin that logs `<label> <thread> <command>` and blocks `rm -rf`. */
const loggingPlugin = (label: string, priority: number) => `
import { appendFileSync } from "node:fs";
import { isMainThread } from "node:worker_threads";
export function register(api) {
  api.on("before_tool", (event) => {
    appendFileSync(process.env.HOOK_E2E_DIR + "/order", "${label} " + (isMainThread ? "main" : "worker") + " " + event.tool_input.command + "\\n");
    if (/rm\\s+-rf/.test(event.tool_input.command)) return { action: "block", reason: "${label.toUpperCase()}-BLOCKED" };
  }, { matcher: { tool: "Bash" }, priority: ${priority}, name: "${label}" });
}
`;

const order = async (d: AcaiDirs) =>
  (await readFile(path.join(d.root, "order"), "utf8")).trim().split("\n");

describe('a user plugin with isolation: "none"', () => {
  it("runs in acai's thread, blocks a call, and keeps its place among the other hooks", async () => {
    dirs = await makeAcaiDirs("acai-inproc-");
    const plugins = path.join(dirs.acaiHome, "plugins");
    await write(path.join(plugins, "fast.mjs"), loggingPlugin("fast", 500));
    await write(path.join(plugins, "slow.mjs"), loggingPlugin("slow", 100));
    const log = `echo "cmd $(cat | grep -o '"command":"[^"]*"')" >> "$HOOK_E2E_DIR/order"`;
    await write(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        plugins: { "fast.mjs": { isolation: "none" } },
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hooks: [{ type: "command", command: log, priority: 900 }] },
          ],
        },
      }),
    );
    server = await startFakeOpenAI([
      bash("echo one"),
      bash("rm -rf /tmp/acai-inproc-victim"),
      { text: "finished" },
    ]);
    const result = await run(dirs, server);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(toolResultsSent(server.requests[2]?.body).at(-1)).toContain("FAST-BLOCKED");
    // Priority order, as for any hook: the command hook (900), the in-process plugin (500), the worker one (100);
    // the block ends the chain before the worker plugin.
    expect(await order(dirs)).toEqual([
      'cmd "command":"echo one"',
      "fast main echo one",
      "slow worker echo one",
      'cmd "command":"rm -rf /tmp/acai-inproc-victim"',
      "fast main rm -rf /tmp/acai-inproc-victim",
    ]);
  }, 60_000);

  it("a handler that throws fails as a worker plugin's does: open goes on with a warning, closed blocks naming the hook", async () => {
    dirs = await makeAcaiDirs("acai-inproc-throw-");
    await write(
      path.join(dirs.acaiHome, "plugins", "throws.mjs"),
      `
export function register(api) {
  api.on("before_tool", () => { throw new Error("OPEN-BOOM"); }, { name: "open-thrower", priority: 200 });
  api.on("before_tool", (event) => {
    if (event.tool_input.command.includes("closed")) throw new Error("CLOSED-BOOM");
  }, { name: "closed-thrower", failure: "closed", priority: 100 });
  api.on("before_tool", () => new Promise(() => {}), { name: "never-answers", timeoutMs: 300, priority: 50 });
}
`,
    );
    await write(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ plugins: { "throws.mjs": { isolation: "none" } } }),
    );
    server = await startFakeOpenAI([
      bash("echo RAN-OPEN > /dev/null; echo ran-open"),
      bash("echo closed"),
      { text: "finished" },
    ]);
    const result = await run(dirs, server);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("finished");
    expect(result.stderr).toContain("open-thrower");
    expect(result.stderr).toContain("OPEN-BOOM");
    // The open failure and the abandoned handler let the first call run; the closed one blocks the second.
    expect(toolResultsSent(server.requests[1]?.body).at(-1)).toContain("ran-open");
    expect(result.stderr).toContain("never-answers");
    expect(result.stderr).toMatch(/timed out after 300 ms/);
    const second = toolResultsSent(server.requests[2]?.body).at(-1) ?? "";
    expect(second).toContain("closed-thrower");
    expect(second).toContain("CLOSED-BOOM");
  }, 60_000);

  it("never for a project: a project plugin of the same name and a project's own setting stay in a worker", async () => {
    dirs = await makeAcaiDirs("acai-inproc-project-");
    await write(path.join(dirs.cwd, ".acai", "plugins", "fast.mjs"), loggingPlugin("project", 500));
    await write(path.join(dirs.cwd, ".acai", "plugins", "own.mjs"), loggingPlugin("own", 400));
    await write(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({ plugins: { "own.mjs": { isolation: "none" } } }),
    );
    await write(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ plugins: { "fast.mjs": { isolation: "none" } } }),
    );
    server = await startFakeOpenAI([bash("echo one"), { text: "finished" }]);
    const result = await run(dirs, server, ["--trust-project"]);
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await order(dirs)).toEqual(["project worker echo one", "own worker echo one"]);
  }, 60_000);
});
