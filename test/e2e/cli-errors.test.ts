import { mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, STACK_TRACE } from "./helpers.js";

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

async function closedPortUrl(): Promise<string> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}

describe("acai -p errors", () => {
  it("a provider 401 gives a clear message and exit 1, no stack trace", async () => {
    server = await startFakeOpenAI([{ status: 401, errorMessage: "Incorrect API key provided" }]);
    const result = await runAcai({
      args: ["-p", "hi", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^acai: error: .*401.*OPENAI_API_KEY/m);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it("a refused connection gives a clear message and exit 1 (json result says so too)", async () => {
    const url = await closedPortUrl();
    const result = await runAcai({
      args: [
        "-p",
        "hi",
        "--output-format",
        "json",
        "--model",
        "openai:fake-model",
        "--base-url",
        url,
      ],
      dirs,
      baseUrl: url,
      timeoutMs: 30_000,
    });
    expect(result.exitCode).toBe(1);
    const res = jsonLines(result.stdout)[0];
    expect(res).toMatchObject({
      type: "result",
      is_error: true,
      exit_code: 1,
      stop_reason: "error",
    });
    expect(String(res?.error)).toMatch(/could not reach the model server/);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it("a connection fetch refuses outright (bad port) names the URL and what to check", async () => {
    const result = await runAcai({
      args: ["-p", "hi", "--model", "openai:x", "--base-url", "http://127.0.0.1:9/v1"],
      dirs,
      timeoutMs: 30_000,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^acai: error: could not reach the model server at http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions \(bad port\)/,
    );
    expect(result.stderr).toContain("Check --base-url / OPENAI_BASE_URL");
    expect(result.stderr).not.toContain("Cannot connect to API");
  });

  it("no key and no base URL: the one-paragraph message, exit 1", async () => {
    const result = await runAcai({
      args: ["-p", "hi", "--model", "openai:gpt-5.1"],
      dirs,
      env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/^acai: error: /);
    expect(result.stderr).toContain("OPENAI_API_KEY");
    expect(result.stderr).toMatch(/--base-url|OPENAI_BASE_URL/);
    expect(result.stderr.trim()).not.toMatch(/\n\s*\n/);
    expect(result.stderr).not.toMatch(STACK_TRACE);
  });

  it("a bad settings file names the file and the field, exit 2", async () => {
    const file = path.join(dirs.cwd, ".acai", "settings.json");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ maxSteps: "many" }));
    const result = await runAcai({ args: ["-p", "hi", "--model", "openai:x"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      `acai: error: Settings file ${file}: field "maxSteps" is invalid`,
    );
    expect(result.stderr).not.toMatch(STACK_TRACE);

    await writeFile(path.join(dirs.acaiHome, "settings.json"), '{\n  "model": "openai:x",,\n}');
    await writeFile(file, "{}");
    const broken = await runAcai({ args: ["-p", "hi"], dirs });
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toContain(
      `${path.join(dirs.acaiHome, "settings.json")}:2:23 is not valid JSON`,
    );
  });

  it("a bad base URL is a usage error (exit 2) naming its source: flag, settings field, env var", async () => {
    const file = path.join(dirs.cwd, ".acai", "settings.json");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, JSON.stringify({ baseUrl: "ftp://x" }));
    const fromSettings = await runAcai({ args: ["-p", "hi", "--model", "openai:x"], dirs });
    expect(fromSettings.exitCode).toBe(2);
    expect(fromSettings.stderr).toBe(
      `acai: error: Settings file ${file}: field "baseUrl" is invalid: must be an http(s) URL, e.g. http://localhost:11434/v1 (got "ftp://x"). Fix or remove "baseUrl".\n`,
    );
    await writeFile(file, "{}");

    const fromEnv = await runAcai({
      args: ["-p", "hi", "--model", "openai:x", "--output-format", "json"],
      dirs,
      env: { OPENAI_BASE_URL: "notaurl" },
    });
    expect(fromEnv.exitCode).toBe(2);
    expect(fromEnv.stderr).toContain(
      'acai: error: OPENAI_BASE_URL "notaurl" must be an http(s) URL, e.g. http://localhost:11434/v1. Fix or unset OPENAI_BASE_URL.',
    );
    expect(jsonLines(fromEnv.stdout)[0]).toMatchObject({ type: "result", exit_code: 2 });

    const fromFlag = await runAcai({
      args: ["-p", "hi", "--model", "openai:x", "--base-url", "ftp://x"],
      dirs,
    });
    expect(fromFlag.exitCode).toBe(2);
    expect(fromFlag.stderr).toContain(
      "acai: error: option '--base-url <url>' argument 'ftp://x' is invalid. must be an http(s) URL, e.g. http://localhost:11434/v1.",
    );
    for (const result of [fromSettings, fromEnv, fromFlag]) {
      expect(result.stderr).not.toMatch(STACK_TRACE);
    }
  });

  it("settings give the model and base URL", async () => {
    server = await startFakeOpenAI([{ text: "configured" }]);
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ model: "openai:from-settings", baseUrl: server.url }),
    );
    const result = await runAcai({ args: ["-p", "hi"], dirs, env: { OPENAI_API_KEY: "k" } });
    expect(result.stderr).toBe("");
    expect(result).toMatchObject({ exitCode: 0, stdout: "configured\n" });
    expect(server.requests[0]?.body?.model).toBe("from-settings");
  });

  it("--model replay: runs offline from the shipped demo", async () => {
    const result = await runAcai({
      args: [
        "-p",
        "show me the demo",
        "--output-format",
        "json",
        "--no-project-hooks",
        "--model",
        `replay:${path.join(REPO_ROOT, "examples", "replay", "demo.json")}`,
      ],
      dirs,
      env: { OPENAI_API_KEY: undefined, OPENAI_BASE_URL: undefined },
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode).toBe(0);
    const res = jsonLines(result.stdout)[0];
    expect(res).toMatchObject({ type: "result", is_error: false, stop_reason: "end_turn" });
    expect(String(res?.text).length).toBeGreaterThan(0);
  });
});
