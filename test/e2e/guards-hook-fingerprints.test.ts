/**
 * A hook file that changed since the session loaded it is not run (issue 18
 * item 4, docs/hooks.md "A hook that changed is not run"), through `acai -p`:
 * the model edits a trusted hook with `sed -i` (allowed by `--yes`), and the
 * new code never runs in that session — the guard, whose failure policy is
 * closed, still blocks. These runs turn the OS sandbox off
 * (`sandbox.enabled: false`, as on a machine without one): with it on, the
 * `sed -i` itself fails (test/e2e/sandbox.test.ts), and this check is what
 * is left where there is none.
 */
import { existsSync } from "node:fs";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-fingerprint-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

/** The user's settings, with the OS sandbox off (see above). */
async function userSettings(settings: Record<string, unknown> = {}): Promise<void> {
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({ sandbox: { enabled: false }, ...settings }),
  );
}

async function writeExecutable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

async function runBash(commands: string[], flags: string[]) {
  server = await startFakeOpenAI([
    ...commands.map((command) => ({ toolCalls: [{ name: "Bash", input: { command } }] })),
    { text: "done" },
  ]);
  const result = await runAcai({
    args: ["-p", "clean up", ...modelArgs("chat", server), ...flags],
    dirs,
    baseUrl: server.url,
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  const results = commands.map(
    (_, i) => toolResultsSent(server?.requests[i + 1]?.body).at(-1) ?? "",
  );
  return { ...result, results };
}

describe("a hook edited during the session does not run its new code", () => {
  it("a trusted project guard edited with sed -i is not run, and as failure: closed it still blocks", async () => {
    const guard = path.join(dirs.cwd, ".acai", "hooks", "guard");
    const marker = path.join(dirs.root, "NEW-CODE-RAN");
    const victim = path.join(dirs.cwd, "victim");
    await mkdir(victim);
    const metadata = {
      name: "guard",
      events: ["before_tool"],
      matcher: { tool: "Bash" },
      failure: "closed",
    };
    await writeExecutable(
      guard,
      `#!/bin/sh\nif [ "$HOOK_ACTION" = describe ]; then echo '${JSON.stringify(metadata)}'; exit 0; fi\ninput=$(cat)\ncase "$input" in *"rm -rf"*) echo "GUARD: no rm -rf" >&2; exit 2;; esac\nexit 0\n`,
    );
    await userSettings();
    const { exitCode, stderr, results } = await runBash(
      [`sed -i 's|exit 2|touch ${marker}; exit 0|' .acai/hooks/guard`, `rm -rf ${victim}`],
      ["--yes", "--trust-project"],
    );
    expect(exitCode, stderr).toBe(0);
    // The sed went through, but the new code never ran, and the guard still blocked the rm -rf.
    expect(await readFile(guard, "utf8")).toContain(`touch ${marker}`);
    expect(existsSync(marker)).toBe(false);
    expect(existsSync(victim)).toBe(true);
    expect(stderr).toContain(`hook warning (guard): was not run: its file ${guard} changed`);
    expect(results[1]).toContain("was not run");
  });

  it("a user settings hook's script, edited mid-session, is not run again (failure open: the call goes on)", async () => {
    const script = path.join(dirs.acaiHome, "scripts", "log.sh");
    const log = path.join(dirs.root, "hook-runs.log");
    const marker = path.join(dirs.root, "NEW-CODE-RAN");
    await writeExecutable(script, `#!/bin/sh\ncat >/dev/null\necho ran >> '${log}'\n`);
    await userSettings({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `'${script}'` }] }],
      },
    });
    const { exitCode, stderr, results } = await runBash(
      [`sed -i 's|^echo ran|touch ${marker}; echo ran|' '${script}'`, "echo second > second.txt"],
      ["--yes"],
    );
    expect(exitCode, stderr).toBe(0);
    expect((await readFile(script, "utf8")).includes(marker)).toBe(true);
    expect(existsSync(marker)).toBe(false);
    // It ran before the first call only; the second call went ahead without it.
    expect(await readFile(log, "utf8")).toBe("ran\n");
    expect(await readFile(path.join(dirs.cwd, "second.txt"), "utf8")).toBe("second\n");
    expect(stderr).toContain(
      `was not run: its file ${script} changed since this session loaded it`,
    );
    expect(results[1]).not.toContain("Permission denied");
  });

  it("a file only touched (same content) keeps running", async () => {
    const script = path.join(dirs.acaiHome, "scripts", "log.sh");
    const log = path.join(dirs.root, "hook-runs.log");
    await writeExecutable(script, `#!/bin/sh\ncat >/dev/null\necho ran >> '${log}'\n`);
    await userSettings({
      hooks: {
        PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `'${script}'` }] }],
      },
    });
    const { exitCode, stderr } = await runBash(
      [`touch -d '2001-01-01' '${script}'`, "echo again"],
      ["--yes"],
    );
    expect(exitCode, stderr).toBe(0);
    expect(await readFile(log, "utf8")).toBe("ran\nran\n");
    expect(stderr).not.toContain("was not run");
  });
});
