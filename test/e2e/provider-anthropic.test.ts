/**
 * `acai -p --model anthropic:…` end to end: the built CLI against the
 * scripted Messages API server (test/support/fake-anthropic-server.ts), so the
 * real `@ai-sdk/anthropic` code runs over HTTP. Also: an OpenAI-model run never
 * loads that package (start-up cost), an Anthropic one does.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeAnthropicServer,
  type FakeAnthropicTurn,
  startFakeAnthropic,
  toolResultsOf,
} from "../support/fake-anthropic-server.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, readJsonl, STACK_TRACE, transcripts } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeAnthropicServer | undefined;
let openai: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-anthropic-");
});
afterEach(async () => {
  await server?.close();
  await openai?.close();
  server = undefined;
  openai = undefined;
  await dirs.cleanup();
});

const MODEL = ["--model", "anthropic:claude-test"];

function anthropicEnv(url: string, key = "sk-ant-e2e"): Record<string, string> {
  return { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: key };
}

/** One Bash call, then an answer quoting its output. */
function bashThenAnswer(command: string, answer: string): FakeAnthropicTurn[] {
  return [
    {
      text: "Running it.",
      toolCalls: [{ name: "Bash", input: { command }, id: "toolu_e2e_1" }],
      usage: { inputTokens: 100, outputTokens: 20 },
    },
    { text: answer, usage: { inputTokens: 150, outputTokens: 10 } },
  ];
}

describe("acai -p --model anthropic:MODEL", () => {
  it("runs a Bash call end to end: the command runs, its result reaches the second request, usage adds up", async () => {
    server = await startFakeAnthropic(
      bashThenAnswer("echo ran-by-claude > ran.txt && echo tool-output-42", "Done: 42."),
    );
    const result = await runAcai({
      args: [
        "-p",
        "run the thing",
        "--allowedTools",
        // The redirection is a write: it needs a rule of its own.
        "Bash(echo:*) Edit(ran.txt)",
        ...MODEL,
        "--output-format",
        "json",
      ],
      dirs,
      env: anthropicEnv(server.url),
    });
    expect(result.stderr).not.toMatch(/acai: error/);
    expect(result.exitCode).toBe(0);
    expect(await readFile(path.join(dirs.cwd, "ran.txt"), "utf8")).toBe("ran-by-claude\n");

    const [first, second] = server.requests;
    expect(server.requests).toHaveLength(2);
    expect(first?.path).toBe("/v1/messages");
    expect(first?.headers["x-api-key"]).toBe("sk-ant-e2e");
    expect(first?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(first?.body).toMatchObject({ model: "claude-test", stream: true });
    expect(JSON.stringify(first?.body?.system)).toContain("acai");
    expect(JSON.stringify(first?.body?.messages)).toContain("run the thing");
    const tools = (first?.body?.tools ?? []) as Array<{ name: string; input_schema: unknown }>;
    expect(tools.map((t) => t.name)).toContain("Bash");
    expect(tools.find((t) => t.name === "Bash")?.input_schema).toMatchObject({ type: "object" });
    // The assistant's tool_use went back, answered by a tool_result with the command's output.
    expect(JSON.stringify(second?.body?.messages)).toContain('"type":"tool_use"');
    const results = toolResultsOf(second?.body);
    expect(results).toHaveLength(1);
    expect(results[0]?.toolUseId).toBe("toolu_e2e_1");
    expect(results[0]?.text).toContain("tool-output-42");

    const lines = jsonLines(result.stdout);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      type: "result",
      is_error: false,
      exit_code: 0,
      text: "Done: 42.",
      stop_reason: "end_turn",
      num_steps: 2,
      usage: { input_tokens: 250, output_tokens: 30, total_tokens: 280 },
    });
  });

  it("streams text to stdout, and the transcript names the model", async () => {
    server = await startFakeAnthropic(bashThenAnswer("echo hi", "All good."));
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...MODEL],
      dirs,
      env: anthropicEnv(server.url),
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe("Running it.\nAll good.\n");
    const files = await transcripts(dirs.acaiHome);
    expect(files).toHaveLength(1);
    expect(JSON.stringify(await readJsonl(files[0] ?? ""))).toContain('"claude-test"');
  });

  it("a 401 ends the run with exit 1 and a message naming ANTHROPIC_API_KEY, no stack trace", async () => {
    server = await startFakeAnthropic([{ status: 401 }]);
    const result = await runAcai({
      args: ["-p", "hi", "--yes", ...MODEL],
      dirs,
      env: anthropicEnv(server.url, "sk-ant-wrong"),
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^acai: error: .*Anthropic API refused the API key \(401, server said: invalid x-api-key\): check ANTHROPIC_API_KEY/m,
    );
    expect(result.stderr).not.toContain("OPENAI_API_KEY");
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(server.requests).toHaveLength(1);
  });

  it("--help's --model line names anthropic:MODEL and its key", async () => {
    const { stdout } = await runAcai({ args: ["--help"], dirs });
    const modelHelp = stdout
      .slice(stdout.indexOf("--model <spec>"), stdout.indexOf("--base-url <url>"))
      .replace(/\s+/g, " ");
    expect(modelHelp).toContain("anthropic:MODEL (ANTHROPIC_API_KEY)");
  });

  it("only ANTHROPIC_API_KEY set and no --model: the session runs on Anthropic's default model", async () => {
    server = await startFakeAnthropic([{ text: "Hello from Claude." }]);
    const result = await runAcai({
      args: ["-p", "hi", "--output-format", "json"],
      dirs,
      env: anthropicEnv(server.url),
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.path).toBe("/v1/messages");
    expect(server.requests[0]?.body?.model).toBe("claude-sonnet-4-5");
    const [answer] = jsonLines(result.stdout);
    expect(answer).toMatchObject({ model: "claude-sonnet-4-5", text: "Hello from Claude." });
  });

  it("no provider variable at all: the message names each provider's variable and an offline hint that works from this folder", async () => {
    const result = await runAcai({ args: ["-p", "hi"], dirs });
    expect(result.exitCode).toBe(1);
    const message = /^acai: error: (No model is configured: .*)$/m.exec(result.stderr)?.[1] ?? "";
    expect(message).toContain("none of ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, OPENAI_API_KEY");
    expect(message).toContain("for Anthropic, set ANTHROPIC_API_KEY");
    expect(message).toContain("for OpenAI, set OPENAI_API_KEY");
    const hint = /--model (replay:\/\S+\.json)\.$/.exec(message)?.[1];
    expect(hint).toBeDefined();
    // The hint, run as printed from the temp project (not acai's repository), answers offline.
    const offline = await runAcai({ args: ["-p", "hi", "--model", hint ?? ""], dirs });
    expect(offline.exitCode).toBe(0);
    expect(offline.stdout).toContain("Done:");
  });

  it("no ANTHROPIC_API_KEY: exit 1 before any request, naming the variable", async () => {
    const result = await runAcai({
      args: ["-p", "hi", "--yes", ...MODEL],
      dirs,
      env: { OPENAI_API_KEY: "sk-openai" },
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(
      /^acai: error: No Anthropic API key: ANTHROPIC_API_KEY is not set/m,
    );
  });

  it("a before_tool hook from the user's settings fires on the Anthropic tool call and its block reaches the model", async () => {
    const log = path.join(dirs.root, "hook.log");
    const script = path.join(dirs.root, "gate.sh");
    await writeFile(
      script,
      `#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' "$input" >> '${log}'\ncase "$input" in *block-me*) echo "BLOCKED-BY-HOOK" >&2; exit 2 ;; esac\nexit 0\n`,
    );
    await chmod(script, 0o755);
    const hook = { type: "command", command: `'${script}'`, name: "gate" };
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          session_start: [{ hooks: [hook] }],
          before_tool: [{ matcher: "Bash", hooks: [hook] }],
        },
      }),
    );
    server = await startFakeAnthropic(bashThenAnswer("echo block-me > blocked.txt", "Blocked."));
    const result = await runAcai({
      args: ["-p", "try it", "--yes", ...MODEL],
      dirs,
      env: anthropicEnv(server.url),
    });
    expect(result.exitCode, result.stderr).toBe(0);

    const payloads = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(payloads.find((p) => p.event === "session_start")).toMatchObject({
      model: "claude-test",
    });
    expect(payloads.find((p) => p.event === "before_tool")).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo block-me > blocked.txt" },
      tool_use_id: "toolu_e2e_1",
    });
    await expect(readFile(path.join(dirs.cwd, "blocked.txt"))).rejects.toThrow(/ENOENT/);
    const [blocked] = toolResultsOf(server.requests[1]?.body);
    expect(blocked?.toolUseId).toBe("toolu_e2e_1");
    expect(blocked?.text).toContain("BLOCKED-BY-HOOK");
  });
});

describe("start-up: @ai-sdk/anthropic loads only for an anthropic: model", () => {
  /**
   * NODE_OPTIONS --import of a module hook that logs every @ai-sdk package the CLI resolves,
   * or loads as part of a bundled chunk (its `// node_modules/@ai-sdk/…` sections; decision 0035).
   */
  async function moduleLogEnv(): Promise<{
    env: Record<string, string>;
    loaded: () => Promise<string[]>;
  }> {
    const log = path.join(dirs.root, "modules.log");
    const hooks = path.join(dirs.root, "log-modules.mjs");
    await writeFile(
      hooks,
      `import { appendFileSync } from "node:fs";
import { registerHooks } from "node:module";
registerHooks({
  resolve(specifier, context, next) {
    const result = next(specifier, context);
    const match = /node_modules\\/(@ai-sdk\\/[^/]+)\\//.exec(result.url);
    if (match) appendFileSync(${JSON.stringify(log)}, match[1] + "\\n");
    return result;
  },
  load(url, context, next) {
    const result = next(url, context);
    if (url.includes("/dist/bundle/") && result.source) {
      for (const m of String(result.source).matchAll(/^\\/\\/ node_modules\\/(@ai-sdk\\/[^/]+)\\//gm)) {
        appendFileSync(${JSON.stringify(log)}, m[1] + "\\n");
      }
    }
    return result;
  },
});
`,
    );
    return {
      env: { NODE_OPTIONS: `--import=${hooks}` },
      loaded: async () => {
        const text = await readFile(log, "utf8").catch(() => "");
        return [...new Set(text.split("\n").filter(Boolean))].sort();
      },
    };
  }

  it("acai -p with an OpenAI model never resolves @ai-sdk/anthropic", async () => {
    openai = await startFakeOpenAI([{ text: "pong" }]);
    const probe = await moduleLogEnv();
    const result = await runAcai({
      args: ["-p", "ping", "--yes", "--model", "openai:fake-model"],
      dirs,
      baseUrl: openai.url,
      env: { ...probe.env, ANTHROPIC_API_KEY: "sk-ant-unused" },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toBe("pong\n");
    const loaded = await probe.loaded();
    expect(loaded).toContain("@ai-sdk/openai");
    expect(loaded).not.toContain("@ai-sdk/anthropic");
  });

  it("acai -p with an anthropic: model resolves it", async () => {
    server = await startFakeAnthropic([{ text: "pong" }]);
    const probe = await moduleLogEnv();
    const result = await runAcai({
      args: ["-p", "ping", "--yes", ...MODEL],
      dirs,
      env: { ...probe.env, ...anthropicEnv(server.url) },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await probe.loaded()).toContain("@ai-sdk/anthropic");
  });
});

describe("provider warnings", () => {
  it("are said once each as acai warnings, never as raw Node warnings on stderr", async () => {
    server = await startFakeAnthropic(bashThenAnswer("echo hi", "Done."));
    const result = await runAcai({
      args: ["-p", "go", "--yes", ...MODEL],
      dirs,
      env: anthropicEnv(server.url),
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(server.requests).toHaveLength(2);
    expect(result.stderr).not.toContain("(node:");
    const warnings = result.stderr.split("\n").filter((line) => line.startsWith("acai: warning:"));
    // claude-test is a model the Anthropic provider does not know: it warns on every request.
    expect(warnings.length).toBeGreaterThan(0);
    expect(new Set(warnings).size).toBe(warnings.length);
  });
});
