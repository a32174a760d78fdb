import { describe, expect, it } from "vitest";
import { EXIT } from "../../source/cli/exit-codes.js";
import type { MainOptions } from "../../source/cli/main-options.js";
import { firstOperand, runProgram } from "../../source/cli/program.js";
import { fakeIo } from "./fake-io.js";

async function parse(argv: string[]) {
  const io = fakeIo(argv);
  let seen: MainOptions | undefined;
  const code = await runProgram(
    { io, setExitCode: () => {} },
    {
      main: async (options) => {
        seen = options;
        return 0;
      },
    },
  );
  return { code, options: seen, out: io.out(), err: io.err() };
}

describe("acai argument parsing", () => {
  it("parses -p with a prompt and the defaults", async () => {
    const { code, options } = await parse(["-p", "hello there"]);
    expect(code).toBe(0);
    expect(options).toEqual({
      print: "hello there",
      prompt: undefined,
      outputFormat: "text",
      maxSteps: undefined,
      model: undefined,
      baseUrl: undefined,
      yes: false,
      permissionMode: undefined,
      allowedTools: [],
      disallowedTools: [],
      verbose: false,
      projectHooks: "require-trust",
    });
  });

  it("parses the permission flags: modes, rule lists in both spellings, the bypass flag", async () => {
    const { options } = await parse([
      "-p",
      "x",
      "--permission-mode",
      "plan",
      "--allowedTools",
      "Bash(npm test:*) Edit(src/**),Read",
      "--allowed-tools",
      "mcp__github__*",
      "--disallowedTools",
      "Bash(curl:*)",
    ]);
    expect(options).toMatchObject({
      permissionMode: "plan",
      allowedTools: ["Bash(npm test:*)", "Edit(src/**)", "Read", "mcp__github__*"],
      disallowedTools: ["Bash(curl:*)"],
    });
    const bypass = await parse(["-p", "x", "--dangerously-skip-permissions"]);
    expect(bypass.options?.permissionMode).toBe("bypassPermissions");
  });

  it("refuses a mode it does not know, a rule that is not one, and the bypass flag beside a mode", async () => {
    const mode = await parse(["-p", "x", "--permission-mode", "yolo"]);
    expect(mode.code).toBe(2);
    expect(mode.err).toContain("default, acceptEdits, plan, bypassPermissions");
    const rule = await parse(["-p", "x", "--allowedTools", "Bash()"]);
    expect(rule.code).toBe(2);
    expect(rule.err).toMatch(/empty parentheses/);
    const both = await parse([
      "-p",
      "x",
      "--dangerously-skip-permissions",
      "--permission-mode",
      "plan",
    ]);
    expect(both.code).toBe(2);
  });

  it("parses every option", async () => {
    const { options } = await parse([
      "-p",
      "--output-format",
      "stream-json",
      "--max-steps",
      "7",
      "--model",
      "replay:x.json",
      "--base-url",
      "http://127.0.0.1:9/v1",
      "--yes",
      "--verbose",
      "--no-project-hooks",
      "the prompt",
    ]);
    expect(options).toEqual({
      print: true,
      prompt: "the prompt",
      outputFormat: "stream-json",
      maxSteps: 7,
      model: "replay:x.json",
      baseUrl: "http://127.0.0.1:9/v1",
      yes: true,
      permissionMode: undefined,
      allowedTools: [],
      disallowedTools: [],
      verbose: true,
      projectHooks: "off",
    });
    expect((await parse(["-p", "x", "--trust-project-hooks"])).options?.projectHooks).toBe(
      "trust-once",
    );
    // The new names, and the old ones kept working.
    expect((await parse(["-p", "x", "--trust-project"])).options?.projectHooks).toBe("trust-once");
    expect((await parse(["-p", "x", "--no-project"])).options?.projectHooks).toBe("off");
    expect((await parse(["-p", "x"])).options?.projectHooks).toBe("require-trust");
    // The largest value the maxSteps setting accepts too (config/max-steps.ts).
    expect((await parse(["-p", "x", "--max-steps", "10000"])).options?.maxSteps).toBe(10_000);
  });

  it.each([
    [
      ["--output-format", "yaml", "-p", "x"],
      /argument 'yaml' is invalid. Allowed choices are text, json, stream-json/,
    ],
    [
      ["--max-steps", "0", "-p", "x"],
      /--max-steps <n>' argument '0' is invalid. must be a whole number/,
    ],
    [["--max-steps", "2.5", "-p", "x"], /must be a whole number/],
    [["--max-steps", "10001", "-p", "x"], /must be a whole number from 1 to 10000/],
    [["--base-url", "localhost:11434", "-p", "x"], /must be an http\(s\) URL/],
    [["--bogus"], /unknown option '--bogus'/],
    [["-p", "x", "--trust-project-hooks", "--no-project-hooks"], /cannot be used with/],
    [["-p", "x", "--trust-project", "--no-project"], /cannot be used with/],
    [["-p", "x", "--trust-project", "--no-project-hooks"], /cannot be used with/],
    [["-p", "x", "extra", "more"], /too many arguments/],
  ])("rejects %j with exit 2 and a clear message", async (argv, message) => {
    const { code, options, err } = await parse(argv);
    expect(code).toBe(EXIT.usage);
    expect(options).toBeUndefined();
    expect(err).toMatch(/^acai: error: /);
    expect(err).toMatch(message);
    expect(err).toContain("(run acai --help for usage)");
    expect(err).not.toMatch(/\n\s+at /);
  });

  it("with a machine format, a usage error still ends stdout with the result object", async () => {
    const bad = await parse(["-p", "hi", "--output-format", "json", "--max-steps", "0"]);
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.err).toContain("--max-steps <n>' argument '0' is invalid");
    expect(bad.out.endsWith("\n")).toBe(true);
    expect(JSON.parse(bad.out)).toMatchObject({
      type: "result",
      is_error: true,
      exit_code: 2,
      stop_reason: null,
      error: expect.stringMatching(/^option '--max-steps <n>' argument '0' is invalid/),
    });

    const unknown = await parse([
      "--output-format=stream-json",
      "--model",
      "m",
      "-p",
      "x",
      "--bogus",
    ]);
    expect(unknown.code).toBe(EXIT.usage);
    const lines = unknown.out.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? "")).toMatchObject({
      type: "result",
      exit_code: 2,
      model: "m",
      error: "unknown option '--bogus'",
    });

    // Text, an invalid format itself, and the hooks commands: stdout stays empty.
    expect((await parse(["-p", "x", "--max-steps", "0"])).out).toBe("");
    expect((await parse(["-p", "x", "--output-format", "yaml"])).out).toBe("");
    expect((await parse(["hooks", "list", "--bogus", "--output-format", "json"])).out).toBe("");
  });

  it("prints help with the exit codes, and the version", async () => {
    const help = await parse(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("Usage: acai [options] [command] [prompt]");
    expect(help.out).toContain("--output-format <format>");
    expect(help.out).toContain("--trust-project ");
    expect(help.out).toContain("--no-project ");
    expect(help.out).toContain("4    an untrusted project (hooks, tools, settings)");
    expect(help.out).toContain("hooks");
    const version = await parse(["--version"]);
    expect(version).toMatchObject({ code: 0, out: "9.8.7\n" });
    expect((await parse(["-v"])).out).toBe("9.8.7\n");
  });

  it("turns an unexpected exception into one line and exit 1", async () => {
    const io = fakeIo(["-p", "x"]);
    const code = await runProgram(
      { io, setExitCode: () => {} },
      {
        main: async () => {
          throw new Error("kaboom\nsecond line");
        },
      },
    );
    expect(code).toBe(EXIT.error);
    expect(io.err()).toBe("acai: error: kaboom (set ACAI_DEBUG=1 for details)\n");
  });

  it("shows the stack with ACAI_DEBUG=1", async () => {
    const io = fakeIo(["-p", "x"], { env: { ACAI_DEBUG: "1" } });
    await runProgram(
      { io, setExitCode: () => {} },
      {
        main: async () => {
          throw new Error("kaboom");
        },
      },
    );
    expect(io.err()).toMatch(/acai: error: Error: kaboom\n\s+at /);
  });
});

describe("firstOperand (decides whether the hooks commands are loaded)", () => {
  it.each([
    [["hooks", "trust"], "hooks"],
    [["--verbose", "hooks", "trust"], "hooks"],
    [["-p", "hooks"], undefined],
    [["-p", "--model", "m", "hooks"], "hooks"],
    [["--model", "hooks", "-p", "x"], undefined],
    [["--model=m", "hooks"], "hooks"],
    [["-p", "x", "--", "hooks"], "hooks"],
    [["--help"], undefined],
  ])("%j → %s", (args, expected) => {
    expect(firstOperand(args)).toBe(expected);
  });
});
