/**
 * Hostile hooks through `acai -p`, for each source kind: a hook that hangs,
 * crashes, leaves a grandchild holding its stdout, prints 50 MB, prints
 * garbage, or never reads its stdin. acai goes on by the failure policy, warns
 * naming each hook, shows no stack trace, and leaves no process behind (every
 * hook's processes carry a unique marker, looked for in `ps -eo args`).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";
import { expectNoSurvivors, installHooks, SOURCE_KINDS, uniqueMarker } from "./hooks-support.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

function hostile(marker: string) {
  const sleeper = (what: string) => `exec -a ${marker}-${what} sleep 30`;
  return [
    {
      name: `${marker}-hang`,
      script: `#!/usr/bin/env bash\ncat >/dev/null\n(${sleeper("hang-child")}) &\n${sleeper("hang")}\n`,
      timeoutMs: 300,
    },
    { name: `${marker}-crash`, script: "#!/usr/bin/env bash\ncat >/dev/null\nkill -SEGV $$\n" },
    {
      name: `${marker}-holder`,
      script: `#!/usr/bin/env bash\ncat >/dev/null\n(${sleeper("holder")}) &\necho '{"action":"continue"}'\nexit 0\n`,
    },
    {
      name: `${marker}-flood`,
      script: "#!/usr/bin/env bash\ncat >/dev/null\nhead -c 52428800 /dev/zero | tr '\\0' x\n",
    },
    {
      name: `${marker}-garbage`,
      script: "#!/usr/bin/env bash\ncat >/dev/null\nprintf '{not json \\xff\\xfe\\x00'\n",
    },
    { name: `${marker}-deaf`, script: "#!/usr/bin/env bash\nexit 0\n" },
  ];
}

describe.each(SOURCE_KINDS)("hostile %s hooks", (kind) => {
  it("never stop acai, are reported by name, and leave no process behind", {
    timeout: 90_000,
  }, async () => {
    dirs = await makeAcaiDirs("acai-hooks-hostile-");
    const marker = uniqueMarker(`hostile-${kind}`);
    const hooks = hostile(marker).map((h, i) => ({
      ...h,
      events: ["before_tool"],
      priority: 600 - i,
    }));
    // The same crash with failure "closed" guards Bash only: it blocks the Bash call.
    hooks.push({
      name: `${marker}-closed`,
      events: ["before_tool"],
      priority: 10,
      script: "#!/usr/bin/env bash\ncat >/dev/null\nexit 7\n",
      failure: "closed",
      matcher: { tool: "Bash" },
    } as (typeof hooks)[number]);
    await installHooks(dirs, kind, hooks);
    const big = "x".repeat(300_000); // far more than a pipe buffer: the deaf hook never reads it
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: "big.txt", content: big } }] },
      { toolCalls: [{ name: "Bash", input: { command: "echo should-not-run" } }] },
      { text: "survived" },
    ]);
    const result = await runAcai({
      dirs,
      args: ["-p", "go", "--yes", "--trust-project-hooks", ...modelArgs("chat", server)],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    // acai ended by itself (the harness did not have to kill it): the hanging and
    // deaf hooks were cut off at their 300 ms timeout (asserted below), not waited for.
    expect(result.timedOut).toBe(false);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain("survived");
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect((await readFile(path.join(dirs.cwd, "big.txt"), "utf8")).length).toBe(big.length);
    for (const what of ["hang", "crash", "flood", "garbage"]) {
      expect(result.stderr, what).toContain(`${marker}-${what}`);
    }
    expect(result.stderr).toMatch(/timed out after 300 ms/);
    expect(result.stderr).toMatch(/passed 1 MiB/);
    // Neither the grandchild holder nor the deaf hook is a failure.
    expect(result.stderr).not.toMatch(new RegExp(`${marker}-holder[^\\n]*failed`));
    expect(result.stderr).not.toMatch(new RegExp(`${marker}-deaf[^\\n]*failed`));
    // failure "closed": the crash blocked the Bash call, with a reason naming the hook.
    const bashResult = toolResultsSent(server.requests[2]?.body).at(-1) ?? "";
    expect(bashResult).toContain(`${marker}-closed`);
    expect(bashResult).not.toContain("should-not-run\n");
    expect(await expectNoSurvivors(marker)).toEqual([]);
  });
});
