/**
 * What acai keeps under ACAI_HOME is its owner's only: a fresh ACAI_HOME and
 * its folders are created 0700; the trust file, a transcript, the hook audit
 * log and the metadata cache 0600; an audit log an older acai left 0644 is
 * made 0600 on the next write. Through the CLI, as a user runs it.
 */
import { statSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, transcripts } from "./helpers.js";
import { installHooks } from "./hooks-support.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

describe("ACAI_HOME file modes", () => {
  it("creates a fresh ACAI_HOME 0700 and its transcripts, logs, caches and trust 0600", async () => {
    const d = await makeAcaiDirs("acai-secrets-files-");
    dirs = d;
    // A home that does not exist yet: acai creates it.
    const home = path.join(d.root, "fresh", "acai-home");
    await installHooks(d, "executable", [
      { name: "tracer", events: ["user_prompt"], script: "#!/bin/sh\ncat >/dev/null\n" },
    ]);
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    // No shared compile cache here: acai's own cache folder is part of what is checked.
    const env = { ACAI_HOME: home, NODE_COMPILE_CACHE: undefined };

    const trusted = await runAcai({ dirs: d, args: ["hooks", "trust"], env });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    const run = await runAcai({
      dirs: d,
      args: ["-p", "hi", ...modelArgs("chat", server)],
      baseUrl: server.url,
      env,
    });
    expect(run.exitCode, run.stderr).toBe(0);

    const [transcript] = await transcripts(home);
    expect(transcript).toBeDefined();
    const expected: Array<[string, string]> = [
      [path.join(d.root, "fresh"), "700"],
      [home, "700"],
      [path.join(home, "transcripts"), "700"],
      [transcript as string, "600"],
      [path.join(home, "logs"), "700"],
      [path.join(home, "logs", "hooks-audit.jsonl"), "600"],
      [path.join(home, "cache"), "700"],
      [path.join(home, "cache", "node-compile"), "700"],
      [path.join(home, "cache", "hook-metadata.json"), "600"],
      [path.join(home, "trust.json"), "600"],
    ];
    expect(expected.map(([file]) => [file, modeOf(file)])).toEqual(expected);
  });

  it("tightens an audit log an older acai left world-readable", async () => {
    const d = await makeAcaiDirs("acai-secrets-files-");
    dirs = d;
    const log = path.join(d.acaiHome, "logs", "hooks-audit.jsonl");
    await mkdir(path.dirname(log), { recursive: true });
    await writeFile(log, "");
    await chmod(log, 0o644);
    await installHooks(d, "settings", [
      { name: "tracer", events: ["user_prompt"], script: "#!/bin/sh\ncat >/dev/null\n" },
    ]);
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const run = await runAcai({
      dirs: d,
      args: ["-p", "hi", "--trust-project-hooks", ...modelArgs("chat", server)],
      baseUrl: server.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(statSync(log).size).toBeGreaterThan(0);
    expect(modeOf(log)).toBe("600");
  });
});
