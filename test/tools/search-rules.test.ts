/**
 * Grep and Glob check each file they visit with the session's read check
 * (`ToolContext.readable`, built from the policy by the agent): a file the
 * Read rules refuse is neither searched nor listed, a refused folder is not
 * entered, a link to a refused file is refused where it lands.
 */
import { mkdir, realpath, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readBlockedBy } from "../../source/permissions/decide.js";
import { NO_RULES, toRules } from "../../source/permissions/rules.js";
import { NO_SHELL_PARSER } from "../../source/permissions/shell/analyze.js";
import { globTool } from "../../source/tools/builtin/glob.js";
import { grepTool } from "../../source/tools/builtin/grep.js";
import { landingOrUndefined } from "../../source/tools/landing.js";
import type { ToolContext } from "../../source/tools/types.js";
import { call, contextFor, expectOk, makeTempDir } from "./helpers.js";

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  const made = await makeTempDir("search-rules");
  cleanup = made.cleanup;
  dir = await realpath(made.dir);
  await writeFile(join(dir, ".env"), "API_KEY=SECRET-VALUE\n");
  await writeFile(join(dir, "app.ts"), "const SECRET = 'not the secret';\n");
  await mkdir(join(dir, "private"));
  await writeFile(join(dir, "private", "notes.txt"), "SECRET-NOTES\n");
  await symlink(".env", join(dir, "env-link"));
});
afterEach(() => cleanup());

/** The context the agent builds: its policy's read check for this tool. */
function contextWith(toolName: string, deny: string[], ask: string[] = []): ToolContext {
  const source = { scope: "flag", label: "--disallowedTools" } as const;
  const policy = {
    mode: "default" as const,
    rules: {
      ...NO_RULES,
      deny: toRules(deny, "deny", source).rules,
      ask: toRules(ask, "ask", source).rules,
    },
    paths: { projectDir: dir, homeDir: join(dir, "home") },
    cwd: dir,
    realpath: landingOrUndefined,
    shell: NO_SHELL_PARSER,
  };
  return {
    ...contextFor(dir),
    readable: (file) => readBlockedBy(toolName, file, policy) === undefined,
  };
}

describe("searches honour Read rules per file", () => {
  it("Grep over the project does not return a denied file's line, nor through a link", async () => {
    const context = contextWith("Grep", ["Read(./.env)"]);
    const result = expectOk(
      await call(grepTool(), { pattern: "SECRET", path: ".", output_mode: "content" }, context),
    );
    expect(result.output).not.toContain("SECRET-VALUE");
    expect(result.output).toContain("not the secret");
    const named = expectOk(
      await call(grepTool(), { pattern: "SECRET", glob: ".env", output_mode: "content" }, context),
    );
    expect(named.output).not.toContain("SECRET-VALUE");
  });

  it("without the rule the same search finds it (the check is what keeps it out)", async () => {
    const result = expectOk(
      await call(
        grepTool(),
        { pattern: "SECRET-VALUE", output_mode: "content" },
        contextWith("Grep", []),
      ),
    );
    expect(result.output).toContain("SECRET-VALUE");
  });

  it("an ask rule keeps a file out of a search, as a deny does; a refused folder is not entered", async () => {
    const context = contextWith("Grep", [], ["Read(private/**)"]);
    const result = expectOk(
      await call(grepTool(), { pattern: "SECRET", output_mode: "content" }, context),
    );
    expect(result.output).not.toContain("SECRET-NOTES");
  });

  it("Glob does not list denied files or links that land on them", async () => {
    const context = contextWith("Glob", ["Read(./.env)", "Read(private)"]);
    const result = expectOk(await call(globTool(), { pattern: "**/*" }, context));
    expect(result.output).toContain("app.ts");
    expect(result.output).not.toContain(".env");
    expect(result.output).not.toContain("env-link");
    expect(result.output).not.toContain("notes.txt");
  });

  it("a rule of the search tool itself counts too", () => {
    const context = contextWith("Grep", ["Grep(./app.ts)"]);
    expect(context.readable?.(join(dir, "app.ts"))).toBe(false);
    expect(context.readable?.(join(dir, ".env"))).toBe(true);
  });
});
