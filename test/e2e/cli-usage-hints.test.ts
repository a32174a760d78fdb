/** Usage mistakes a new user makes: an empty --model, an unquoted prompt, `acai help`. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines } from "./helpers.js";

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

describe("usage hints", () => {
  it("--model '' is a usage error naming the flag, and no model is asked", async () => {
    server = await startFakeOpenAI([{ text: "should not be asked" }]);
    const result = await runAcai({ args: ["-p", "hi", "--model", ""], dirs, baseUrl: server.url });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(/^acai: error: option '--model <spec>' argument '' is invalid/);
    expect(result.stderr).toContain("must name a model");
    expect(result.stdout).toBe("");
    expect(server.requests).toHaveLength(0);
  });

  it("--model= (empty) with json output still ends with the result object, exit 2", async () => {
    const result = await runAcai({
      args: ["-p", "hi", "--model=  ", "--output-format", "json"],
      dirs,
    });
    expect(result.exitCode).toBe(2);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ type: "result", exit_code: 2 });
  });

  it("an unquoted prompt says to quote it, with the command to type", async () => {
    const result = await runAcai({ args: ["-p", "what", "files", "are", "here"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain(
      'acai: error: too many arguments: the prompt must be one argument; quote the prompt: acai -p "what files are here"',
    );
    expect(result.stderr).not.toContain("Expected 1 argument");
  });

  it("without -p too, and a prompt with a $ is quoted so the shell leaves it alone", async () => {
    const result = await runAcai({ args: ["--verbose", "echo", "$HOME", "please"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("quote the prompt: acai 'echo $HOME please'");
  });

  it("a subcommand's excess arguments keep commander's message", async () => {
    const result = await runAcai({ args: ["hooks", "list", "extra"], dirs });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("too many arguments for 'list'");
    expect(result.stderr).not.toContain("quote the prompt");
  });

  it("`acai help` shows the help (exit 0) and sends nothing to the model, even with stdin piped", async () => {
    server = await startFakeOpenAI([{ text: "should not be asked" }]);
    const result = await runAcai({ args: ["help"], dirs, baseUrl: server.url, stdin: "" });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Usage: acai [options] [command] [prompt]");
    expect(result.stdout).toContain("Exit codes");
    expect(server.requests).toHaveLength(0);
  });

  it("`acai help hooks` shows the hooks command's help", async () => {
    const result = await runAcai({ args: ["help", "hooks"], dirs });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("Usage: acai hooks");
    expect(result.stderr).toBe("");
  });

  it("`acai -p help` is still a prompt", async () => {
    server = await startFakeOpenAI([{ text: "here is some help" }]);
    const result = await runAcai({
      args: ["-p", "help", "--model", "openai:fake-model"],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain("here is some help");
  });
});
