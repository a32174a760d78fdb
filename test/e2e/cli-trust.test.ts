import { existsSync } from "node:fs";
import { chmod, mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer;
let marker: string;

/** A project settings hook that leaves a file behind when it runs. */
async function writeProjectHook(command: string): Promise<void> {
  const file = path.join(dirs.cwd, ".acai", "settings.json");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command }] }] } }),
  );
}

/** A project dynamic tool that leaves a file behind when it is described; returns that file. */
async function writeProjectTool(): Promise<string> {
  const toolMarker = path.join(dirs.root, "tool-described");
  const tool = path.join(dirs.cwd, ".acai", "tools", "probe");
  await mkdir(path.dirname(tool), { recursive: true });
  await writeFile(
    tool,
    `#!/bin/sh\ntouch '${toolMarker}'\necho '{"name":"probe","description":"d","input_schema":{"type":"object"}}'\n`,
  );
  await chmod(tool, 0o755);
  return toolMarker;
}

beforeEach(async () => {
  dirs = await makeAcaiDirs();
  marker = path.join(dirs.root, "hook-ran");
  await writeProjectHook(`touch '${marker}'`);
  server = await startFakeOpenAI(() => ({ text: "answered" }));
});
afterEach(async () => {
  await server.close();
  await dirs.cleanup();
});

const run = (...args: string[]) =>
  runAcai({ args: ["-p", "hi", ...modelArgs("chat", server), ...args], dirs, baseUrl: server.url });

describe("project hook trust in acai -p", () => {
  it("refuses untrusted project hooks: exit 4, lists them and the three ways on, runs nothing", async () => {
    const result = await run();
    expect(result.exitCode).toBe(4);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain(`This project has 1 untrusted hook in ${dirs.cwd}`);
    expect(result.stderr).toContain(`command: touch '${marker}'`);
    expect(result.stderr).toContain("events: user_prompt");
    expect(result.stderr).toContain("acai hooks trust");
    expect(result.stderr).toContain("--trust-project");
    expect(result.stderr).toContain("--no-project");
    expect(existsSync(marker)).toBe(false);
    expect(server.requests).toHaveLength(0);
  });

  it("refuses before running any project code, dynamic tools' describe included; --no-project-hooks leaves the tools out too", async () => {
    const toolMarker = await writeProjectTool();
    expect((await run()).exitCode).toBe(4);
    expect(existsSync(toolMarker)).toBe(false);
    expect((await run("--no-project-hooks")).exitCode).toBe(0);
    expect(existsSync(toolMarker)).toBe(false);
    expect(existsSync(marker)).toBe(false);
    expect((await run("--trust-project-hooks")).exitCode).toBe(0);
    expect(existsSync(toolMarker)).toBe(true);
  });

  it("a project with only a dynamic tool is refused (exit 4) and its describe never runs; trusting loads it", async () => {
    await rm(path.join(dirs.cwd, ".acai", "settings.json"));
    const toolMarker = await writeProjectTool();
    const refused = await run();
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain(`This project has 1 untrusted tool in ${dirs.cwd}`);
    expect(refused.stderr).toContain("probe");
    expect(refused.stderr).toContain("hooks, tools, settings");
    expect(refused.stderr).toContain(
      "--no-project           run with none of this project's hooks, tools and settings",
    );
    expect(existsSync(toolMarker)).toBe(false);
    expect(server.requests).toHaveLength(0);
    const trusted = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    // Once trust is recorded (not before), the trust command describes the tool to show the
    // secrets it asks for (session/env-requests.ts).
    expect(existsSync(toolMarker)).toBe(true);
    await rm(toolMarker);
    const ran = await run();
    expect(ran.exitCode, ran.stderr).toBe(0);
    expect(existsSync(toolMarker)).toBe(true);
    const tools = JSON.stringify(server.requests[0]?.body ?? {});
    expect(tools).toContain("probe");
  });

  it("acai hooks trust counts hooks and tools by kind", async () => {
    await writeProjectTool();
    const refused = await run();
    expect(refused.stderr).toContain(
      `This project has 1 untrusted hook and 1 untrusted tool in ${dirs.cwd}`,
    );
    const trust = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(trust.exitCode, trust.stderr).toBe(0);
    expect(trust.stdout).toContain(`Trusted 1 project hook and 1 project tool in ${dirs.cwd}:`);
    const again = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(again.stdout).toBe(
      `Already trusted: the project hooks, tools and settings in ${dirs.cwd} have not changed.\n`,
    );

    await rm(path.join(dirs.cwd, ".acai", "settings.json"));
    const toolOnly = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(toolOnly.stdout).toContain(`Trusted 1 project tool in ${dirs.cwd}:`);
  });

  it("json output still ends with a result object carrying exit code 4", async () => {
    const result = await run("--output-format", "json");
    expect(result.exitCode).toBe(4);
    expect(jsonLines(result.stdout)).toEqual([
      expect.objectContaining({
        type: "result",
        is_error: true,
        exit_code: 4,
        error: expect.stringContaining("untrusted"),
      }),
    ]);
  });

  it("--trust-project-hooks runs them this time only", async () => {
    const once = await run("--trust-project-hooks");
    expect(once).toMatchObject({ exitCode: 0, stdout: "answered\n" });
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    expect((await run()).exitCode).toBe(4);
    expect(existsSync(marker)).toBe(false);
  });

  it("--no-project-hooks runs without them", async () => {
    const result = await run("--no-project-hooks");
    expect(result).toMatchObject({ exitCode: 0, stdout: "answered\n" });
    expect(existsSync(marker)).toBe(false);
  });

  it("acai hooks trust records the set; a change revokes it", async () => {
    const trust = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(trust.exitCode).toBe(0);
    expect(trust.stdout).toContain(`Trusted 1 project hook in ${dirs.cwd}:`);
    expect(trust.stdout).toContain(`command: touch '${marker}'`);
    const again = await runAcai({ args: ["hooks", "trust"], dirs });
    expect(again.stdout).toContain("Already trusted");

    expect(await run()).toMatchObject({ exitCode: 0, stdout: "answered\n" });
    expect(existsSync(marker)).toBe(true);

    await writeProjectHook(`touch '${marker}-changed'`);
    const changed = await run();
    expect(changed.exitCode).toBe(4);
    expect(existsSync(`${marker}-changed`)).toBe(false);
  });
});
