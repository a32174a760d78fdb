/**
 * What acai -p says about hooks it cannot load: one warning each, saying what
 * is wrong and nothing that is not (user hooks: trusted, so the run goes on).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-broken-hooks-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function hookMd(name: string, trigger: string): Promise<string> {
  const dir = path.join(dirs.home, ".config", "agents", "hooks", name);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, "HOOK.md"), `---\nname: ${name}\ntrigger: ${trigger}\n---\n`);
  return dir;
}

describe("warnings for hooks that are not loaded", () => {
  it("name the real problem: a missing run* script, an unknown trigger, an unsupported settings hook type", async () => {
    const noScript = await hookMd("no-script", "pre-tool-call");
    const badTrigger = await hookMd("bad-trigger", "pre-everything");
    await mkdir(path.join(badTrigger, "scripts"));
    await writeFile(path.join(badTrigger, "scripts", "run.sh"), "cat >/dev/null\n");
    const hooks = { Stop: [{ hooks: [{ type: "webhook", prompt: "Is the work done?" }] }] };
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
    server = await startFakeOpenAI([{ text: "ok" }]);
    const result = await runAcai({
      args: ["-p", "hi", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("ok\n");
    expect(result.stderr).not.toMatch(STACK_TRACE);
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    const line = (name: string) => lines.find((l) => l.includes(`hook ${name} `)) ?? "";

    // A script need not be executable: its #! line or its extension says how to run it.
    expect(line("no-script")).toContain(
      `no script: add a file named run* to ${path.join(noScript, "scripts")} (e.g. run.sh)`,
    );
    expect(line("no-script")).not.toContain("expected an executable");

    // HOOK.md triggers accept the Agent Hooks names: the error lists them.
    expect(line("bad-trigger")).toContain('unknown event "pre-everything"');
    for (const name of ["pre-tool-call", "post-tool-call", "pre-agent-turn", "post-session"]) {
      expect(line("bad-trigger")).toContain(name);
    }

    expect(line("hooks.Stop[0].hooks[0]")).toMatch(
      /: hook type "webhook" is not one acai runs; expected one of "command", "http", "prompt", "agent", "mcp_tool"$/,
    );
  });
});
