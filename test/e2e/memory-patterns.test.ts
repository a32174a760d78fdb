/**
 * Patterns and the built-in memory through `acai -p` against the scripted
 * model server: a memory saved in one session is given back at the start of
 * the next and found by `@memory:search` there (what reached the model is
 * what the server recorded), and by `acai memory search`; a bash hook
 * handling `@deploy:staging …` answers the agent, also after the model had
 * finished (one follow-up step).
 */
import { chmod, writeFile } from "node:fs/promises";
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

async function session(d: AcaiDirs, script: { text: string }[], prompt = "go") {
  server = await startFakeOpenAI(script);
  const result = await runAcai({
    dirs: d,
    args: ["-p", prompt, ...modelArgs("chat", server)],
    baseUrl: server.url,
    timeoutMs: 30_000,
  });
  const bodies = server.requests.map((r) => JSON.stringify(r.body));
  await server.close();
  server = undefined;
  return { result, bodies };
}

describe("patterns and memory, through acai -p", () => {
  it("a memory saved in one session is found in the next, and by acai memory search", async () => {
    dirs = await makeAcaiDirs("acai-memory-e2e-");
    const first = await session(dirs, [
      { text: "Noted.\n@memory:save The build uses pnpm, never npm" },
      { text: "saved" },
    ]);
    expect(first.result.exitCode, first.result.stderr).toBe(0);
    expect(first.result.stdout).toContain("saved");
    // The model had finished: one follow-up step carried the answer.
    expect(first.bodies).toHaveLength(2);
    expect(first.bodies[1]).toContain("[memory] saved as #1");

    const second = await session(dirs, [
      { text: "@memory:search which build tool" },
      { text: "pnpm it is" },
    ]);
    expect(second.result.exitCode, second.result.stderr).toBe(0);
    // Given at session start (memory.injectOnStart) …
    expect(second.bodies[0]).toContain("From earlier sessions");
    expect(second.bodies[0]).toContain("The build uses pnpm, never npm");
    // … and found by the search.
    expect(second.bodies[1]).toContain('[memory] 1 memory matches \\"which build tool\\"');

    const cli = await runAcai({ dirs, args: ["memory", "search", "pnpm"] });
    expect(cli.exitCode, cli.stderr).toBe(0);
    expect(cli.stdout).toContain("#1");
    expect(cli.stdout).toContain("The build uses pnpm, never npm");
  });

  it("a bash hook handling @deploy:staging answers the agent", async () => {
    dirs = await makeAcaiDirs("acai-pattern-e2e-");
    const hook = path.join(dirs.root, "deploy.sh");
    await writeFile(
      hook,
      `#!/bin/bash
payload=$(cat)
target=$(printf '%s' "$payload" | sed -n 's/.*"target":"\\([^"]*\\)".*/\\1/p')
message=$(printf '%s' "$payload" | sed -n 's/.*"message":"\\([^"]*\\)".*/\\1/p')
echo "{\\"inject\\": \\"Deployed $message to $target (deploy-hook)\\"}"
`,
    );
    await chmod(hook, 0o755);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          pattern: [{ matcher: "deploy", hooks: [{ type: "command", command: `'${hook}'` }] }],
        },
      }),
    );
    const run = await session(dirs, [
      {
        text: "Shipping.\n@deploy:staging v1.2.3\n@other:thing ignored\n```\n@deploy:prod never\n```",
      },
      { text: "deployed" },
    ]);
    expect(run.result.exitCode, run.result.stderr).toBe(0);
    expect(run.result.stdout).toContain("deployed");
    expect(run.bodies).toHaveLength(2);
    expect(run.bodies[1]).toContain("Deployed v1.2.3 to staging (deploy-hook)");
    expect(run.bodies[1]).not.toContain("to prod");
  });
});
