/**
 * `acai -p` in text mode says on stderr what a user would otherwise have to
 * guess: that a signal interrupted the run, and that a hook's `ask` was denied
 * (so the Write did not happen), like a plain block.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai, startAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";
import { installHooks } from "./hooks-support.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not reached in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("acai -p text mode: signals are reported", () => {
  it.each([
    ["SIGINT", 130, "acai: interrupted by SIGINT"],
    ["SIGTERM", 143, "acai: interrupted by SIGTERM"],
    ["SIGHUP", 129, "acai: interrupted by SIGHUP (the terminal went away)"],
  ] as const)(
    "%s during a model stream: exit %i and '%s' on stderr",
    async (signal, code, line) => {
      server = await startFakeOpenAI([{ text: "partial answer that never ends", hangMs: 30_000 }]);
      const run = startAcai({
        args: ["-p", "go", ...modelArgs("chat", server)],
        dirs,
        baseUrl: server.url,
      });
      let stdout = "";
      run.child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      await until(() => stdout.length > 0);
      run.child.kill(signal);
      const result = await run.result;
      expect(result.exitCode).toBe(code);
      expect(result.stderr).toContain(`${line}\n`);
      expect(result.stderr).not.toContain("error:");
      expect(result.stderr).not.toMatch(STACK_TRACE);
    },
  );
});

describe("acai -p text mode: a hook's ask", () => {
  const ASKER = `#!/usr/bin/env bash
cat >/dev/null
echo '{"action":"ask","reason":"writing notes.txt needs a look"}'
`;
  const write = {
    toolCalls: [{ name: "Write", input: { file_path: "notes.txt", content: "hello\n" } }],
  };

  async function runWith(extra: string[]) {
    await installHooks(dirs, "executable", [
      {
        name: "confirm-writes",
        events: ["before_tool"],
        script: ASKER,
        matcher: { tool: "Write" },
      },
    ]);
    server = await startFakeOpenAI([write, { text: "done" }]);
    return runAcai({
      args: ["-p", "write the notes", "--trust-project", ...extra, ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
  }

  it("denied without --yes: one line says so and how to allow it; the file is not written", async () => {
    const result = await runWith([]);
    expect(result.exitCode).toBe(0);
    // The hook's ask is a permission question, which acai -p cannot put to anyone.
    expect(result.stderr).toContain(
      "acai: hook confirm-writes asked to confirm before_tool: writing notes.txt needs a look\n",
    );
    expect(result.stderr).toContain(
      'acai: permission denied: Write notes.txt: Write needs permission (hook "confirm-writes" asks: writing notes.txt needs a look) and acai -p cannot ask: allow it with --allowedTools "Edit(./notes.txt)", a "permissions.allow" rule in settings, or --yes',
    );
    expect(existsSync(path.join(dirs.cwd, "notes.txt"))).toBe(false);
  });

  it("with --yes: the line says --yes allowed it, and the file is written", async () => {
    const result = await runWith(["--yes"]);
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain(
      "acai: hook confirm-writes asked to confirm before_tool: writing notes.txt needs a look (allowed by --yes)",
    );
    expect(existsSync(path.join(dirs.cwd, "notes.txt"))).toBe(true);
  });
});
