import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, acai, tempProject, writeExecutable } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

describe("settings hooks: readable names, matchers as written", () => {
  it("list, -p --verbose and hooks log name a settings hook by its script; list shows the Claude matcher", async () => {
    dirs = await tempProject();
    const script = await writeExecutable(
      path.join(dirs.acaiHome, "scripts", "check-bash.sh"),
      "#!/bin/sh\ncat >/dev/null\nexit 0\n",
    );
    const command = `FOO=1 bash ${script} --strict --level 3`;
    await mkdir(dirs.acaiHome, { recursive: true });
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "mcp__.*|Bash", hooks: [{ type: "command", command }] }],
          Stop: [{ hooks: [{ type: "command", command: "true", name: "Stop gate" }] }],
        },
      }),
    );

    const list = await acai(dirs, ["hooks", "list"]);
    expect(list.exitCode, list.stderr).toBe(0);
    expect(list.stdout).toContain("  check-bash.sh  (user settings)");
    expect(list.stdout).toContain('      matcher: tool="mcp__.*|Bash"');
    expect(list.stdout).toContain(`      command: ${command}`);
    expect(list.stdout).toContain("  Stop gate  (user settings)");
    expect(list.stdout).not.toContain("[\\s\\S]");
    const json = JSON.parse((await acai(dirs, ["hooks", "list", "--json"])).stdout) as {
      hooks: { name: string; matcher: unknown; command: string }[];
    };
    expect(json.hooks.find((h) => h.name === "check-bash.sh")).toMatchObject({
      matcher: { tool: "mcp__.*|Bash" },
      command,
    });

    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "echo hi" } }] },
      { text: "done" },
    ]);
    const run = await acai(dirs, ["-p", "hi", "--yes", "--verbose", ...modelArgs("chat", server)], {
      baseUrl: server.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const verbose = run.stdout + run.stderr;
    expect(verbose).toContain("hook check-bash.sh (before_tool)");
    expect(verbose).not.toContain("hook FOO=1");
    const log = await acai(dirs, ["hooks", "log"]);
    expect(log.stdout).toContain("before_tool        check-bash.sh [user settings]");
    expect(log.stdout).toContain("before_stop        Stop gate [user settings]");
  });

  it("hooks test tells two settings hooks of the same name apart by --event", async () => {
    dirs = await tempProject();
    const script = await writeExecutable(
      path.join(dirs.acaiHome, "scripts", "notify.sh"),
      "#!/bin/sh\ncat >/dev/null\nexit 0\n",
    );
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [{ hooks: [{ type: "command", command: `bash ${script} pre` }] }],
          Stop: [{ hooks: [{ type: "command", command: `bash ${script} stop` }] }],
        },
      }),
    );
    const both = await acai(dirs, ["hooks", "test", "notify.sh"]);
    expect(both.exitCode).toBe(2);
    expect(both.stderr).toContain('2 hooks are named "notify.sh"');
    expect(both.stderr).toContain("pick its event with --event");
    const one = await acai(dirs, ["hooks", "test", "notify.sh", "--event", "Stop"]);
    expect(one.exitCode, one.stderr).toBe(0);
    expect(one.stdout).toContain("Testing notify.sh (user settings");
    // Its plain line ran without a shell (decision 0075), and says so as written.
    expect(one.stdout).toContain(`stdin sent (bash ${script} stop, started without /bin/sh):`);
  });

  it("hooks test shows a line with shell syntax as run through /bin/sh -c", async () => {
    dirs = await tempProject();
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          Stop: [{ hooks: [{ type: "command", command: "cat >/dev/null; exit 0", name: "gate" }] }],
        },
      }),
    );
    const run = await acai(dirs, ["hooks", "test", "gate"]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain("stdin sent (/bin/sh -c cat >/dev/null; exit 0):");
  });
});
