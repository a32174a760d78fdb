import { afterEach, describe, expect, it } from "vitest";
import { modelArgs } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, acai, tempProject, userHook } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** A guard whose body never parses: bash exits 2 with "syntax error: unexpected end of file". */
const BROKEN_BODY = 'input=$(cat)\ncase "$input" in\n  *"rm -rf"*) echo no >&2; exit 2;;\n';

describe("a bash hook with a syntax error (exit 2)", () => {
  it("still blocks, and hooks test, the audit log and hooks log say it looks like a crash", async () => {
    dirs = await tempProject();
    await userHook(
      dirs,
      "guard",
      { name: "guard", events: ["before_tool"], matcher: { tool: "Bash" } },
      BROKEN_BODY,
    );
    const tested = await acai(dirs, ["hooks", "test", "guard"]);
    expect(tested.exitCode).toBe(2);
    expect(tested.stdout).toContain("decision: block");
    expect(tested.stdout).toMatch(
      /note: exit 2 with a shell error \(.*guard: line \d+: syntax error: unexpected end of file\): this looks like a crash of the hook's script, not a decision/,
    );
    const json = await acai(dirs, ["hooks", "test", "guard", "--json"]);
    expect(JSON.parse(json.stdout).note).toContain("looks like a crash");

    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "ls" } }] },
      { text: "done" },
    ]);
    const run = await acai(dirs, ["-p", "list", "--yes", ...modelArgs("chat", server)], {
      baseUrl: server.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const log = await acai(dirs, ["hooks", "log"]);
    expect(log.stdout).toContain("guard [user executable]  block");
    expect(log.stdout).toContain("note: exit 2 with a shell error");
    const entries = (await acai(dirs, ["hooks", "log", "--json"])).stdout;
    expect(entries).toContain('"note":"exit 2 with a shell error');
  });

  it("adds no note to a deliberate block", async () => {
    dirs = await tempProject();
    await userHook(
      dirs,
      "no-ls",
      { name: "no-ls", events: ["before_tool"], matcher: { tool: "Bash" } },
      'cat >/dev/null; echo "not here" >&2; exit 2',
    );
    const tested = await acai(dirs, ["hooks", "test", "no-ls"]);
    expect(tested.exitCode).toBe(2);
    expect(tested.stdout).not.toContain("note:");
  });
});
