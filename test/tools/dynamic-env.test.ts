/**
 * Dynamic tools get the environment scrubbed by the shared secrets policy:
 * no secrets at all while describing, and only the ones their metadata lists
 * under `env` while executing. The list is on the loaded tool (`dynamic.env`).
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runProcess } from "../../source/process/runner.js";
import { bashTool } from "../../source/tools/builtin/bash.js";
import { isDynamicTool, loadDynamicTools } from "../../source/tools/dynamic.js";
import { call, contextFor, expectOk, makeTempDir, testEnv } from "./helpers.js";

let dir: string;
let tools: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await makeTempDir("dynamic-env"));
  tools = join(dir, "tools");
  await mkdir(tools);
});
afterEach(() => cleanup());

const parentEnv = {
  ...testEnv,
  OPENAI_API_KEY: "sk-openai-value",
  SLACK_TOKEN: "xoxb-slack-value",
  DATABASE_URL: "postgres://app:db-password@db/app",
  SSH_AUTH_SOCK: "/tmp/agent-socket",
  PLAIN_SETTING: "plain-value",
};

/** A tool that dumps its environment to `<dir>/<action>-<name>` in both modes. */
async function dumpingTool(name: string, env?: unknown): Promise<void> {
  const metadata = JSON.stringify({ name, description: "dumps env", ...(env ? { env } : {}) });
  const file = join(tools, name);
  await writeFile(
    file,
    `#!/bin/sh\nenv > "${dir}/$TOOL_ACTION-${name}"\nif [ "$TOOL_ACTION" = describe ]; then echo '${metadata}'; fi\n`,
  );
  await chmod(file, 0o755);
}

const load = () =>
  loadDynamicTools({ dirs: [tools], projectDir: dir, runner: runProcess, env: parentEnv });

describe("dynamic tool environment", () => {
  it("describes without secrets and executes with only the listed ones", async () => {
    await dumpingTool("plain");
    await dumpingTool("slack", ["SLACK_TOKEN", "DATABASE_URL"]);
    const { tools: loaded, warnings } = await load();
    expect(warnings).toEqual([]);

    for (const name of ["plain", "slack"]) {
      const described = await readFile(join(dir, `describe-${name}`), "utf8");
      for (const secret of ["sk-openai", "xoxb-slack", "db-password", "agent-socket"]) {
        expect(described).not.toContain(secret);
      }
      expect(described).toContain("PLAIN_SETTING=plain-value");
    }

    const context = { ...contextFor(dir), env: parentEnv };
    for (const tool of loaded) expectOk(await call(tool, {}, context));
    const plain = await readFile(join(dir, "execute-plain"), "utf8");
    const slack = await readFile(join(dir, "execute-slack"), "utf8");
    for (const secret of ["sk-openai", "xoxb-slack", "db-password", "agent-socket"]) {
      expect(plain).not.toContain(secret);
    }
    expect(plain).toContain("PLAIN_SETTING=plain-value");
    expect(plain).toContain("TOOL_ACTION=execute");
    expect(slack).toContain("SLACK_TOKEN=xoxb-slack-value");
    expect(slack).toContain("DATABASE_URL=postgres://app:db-password@db/app");
    expect(slack).not.toContain("sk-openai");
    expect(slack).not.toContain("agent-socket");
  });

  it("shows the requested env on the loaded tool", async () => {
    await dumpingTool("plain");
    await dumpingTool("slack", ["SLACK_TOKEN", "SLACK_TOKEN"]);
    const { tools: loaded } = await load();
    const byName = new Map(loaded.map((t) => [t.name, t]));
    expect(byName.get("plain")?.dynamic).toEqual({ file: join(tools, "plain"), env: [] });
    expect(byName.get("slack")?.dynamic).toEqual({
      file: join(tools, "slack"),
      env: ["SLACK_TOKEN"],
    });
    expect(loaded.every(isDynamicTool)).toBe(true);
    expect(isDynamicTool(bashTool())).toBe(false);
  });

  it("rejects an env entry that is not a variable name", async () => {
    await dumpingTool("bad", ["A=B"]);
    const { tools: loaded, warnings } = await load();
    expect(loaded).toEqual([]);
    expect(warnings.join("\n")).toContain("env.0");
  });

  it("leaves the Bash tool the user's whole environment", async () => {
    const result = expectOk(
      await call(bashTool(), { command: "env" }, { ...contextFor(dir), env: parentEnv }),
    );
    expect(result.output).toContain("OPENAI_API_KEY=sk-openai-value");
    expect(result.output).toContain("SSH_AUTH_SOCK=/tmp/agent-socket");
  });
});
