/**
 * The original acai-ts hooks design (seed 004), as its hooks are written:
 * executables in `.acai/hooks` registered on its agent events by their own
 * names (`tool-call-start`, `agent-stop`), JSON over stdio, observe / block /
 * modify — through `acai -p` against the scripted server: a block is the
 * tool's result for the model, a modify runs the new input, an observer of
 * `agent-stop` sees the turn end.
 */
import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs, toolResultsSent } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../../support/run-acai.js";

const EXAMPLES = path.join(path.dirname(fileURLToPath(import.meta.url)), "examples");

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

describe("acai-ts's hooks, by its own event names, through acai -p", () => {
  it("tool-call-start blocks and modifies; agent-stop is observed", async () => {
    dirs = await makeAcaiDirs("acai-seed-acaits-");
    await cp(path.join(EXAMPLES, "hooks"), path.join(dirs.cwd, ".acai", "hooks"), {
      recursive: true,
    });
    const stopLog = path.join(dirs.root, "stops.log");
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { toolCalls: [{ name: "Bash", input: { command: "echo old" } }] },
      { text: "done" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--yes", "--trust-project", ...modelArgs("chat", server)],
      baseUrl: server.url,
      env: { STOP_LOG: stopLog },
      timeoutMs: 30_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).not.toContain("unknown event");
    expect(toolResultsSent(server.requests[1]?.body).join("\n")).toContain(
      "acai-ts hook: no rm -rf",
    );
    expect(toolResultsSent(server.requests[2]?.body).join("\n")).toContain("MODIFIED-BY-HOOK");
    expect((await readFile(stopLog, "utf8")).trim().split("\n").length).toBe(1);
  });
});
