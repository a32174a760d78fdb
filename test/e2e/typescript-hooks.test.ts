import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

/** A guard written in TypeScript (type annotations: only a Node that strips types runs it). */
const TS_GUARD = `#!/usr/bin/env node
const action: string = process.env.HOOK_ACTION ?? "execute";
if (action === "describe") {
  const metadata: { name: string; events: string[] } = { name: "ts-guard", events: ["before_tool"] };
  console.log(JSON.stringify(metadata));
  process.exit(0);
}
process.stderr.write("typed guard says no\\n");
process.exit(2);
`;

describe("TypeScript hooks in a session", () => {
  it("run with acai's own Node when the node on PATH cannot run TypeScript", async () => {
    dirs = await makeAcaiDirs();
    const hook = path.join(dirs.acaiHome, "hooks", "ts-guard.mts");
    await mkdir(path.dirname(hook), { recursive: true });
    await writeFile(hook, TS_GUARD);
    await chmod(hook, 0o755);
    // The node first on PATH fails on anything, as Node 20 does on a .mts file.
    const bin = path.join(dirs.root, "old-node");
    await mkdir(bin);
    await writeFile(
      path.join(bin, "node"),
      '#!/bin/sh\necho "Unknown file extension \\".mts\\" (old node)" >&2\nexit 1\n',
    );
    await chmod(path.join(bin, "node"), 0o755);

    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "ok" },
    ]);
    const run = await runAcai({
      dirs,
      args: ["-p", "say hi", "--yes", ...modelArgs("chat", server)],
      baseUrl: server.url,
      env: { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` },
    });
    expect(run.stderr).not.toContain("old node");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(toolResultsSent(server.requests[1]?.body).join("\n")).toContain("typed guard says no");
  });
});
