/**
 * A path rule naming one file catches every name of that file: a hard link
 * to `.env` is `.env` (red team, issue 18). Real files in a temp folder;
 * the identity check is the session's own (`sameFileOnDisk`).
 */
import { link, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decide, type PermissionPolicy, readBlockedBy } from "../../source/permissions/decide.js";
import { literalFileOf } from "../../source/permissions/paths.js";
import { type RuleSource, toRules } from "../../source/permissions/rules.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";
import { sameFileOnDisk } from "../../source/tools/landing.js";

const USER: RuleSource = { scope: "user", label: "--disallowedTools" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "acai-hard-link-"));
  await writeFile(path.join(dir, ".env"), "API_KEY=secret\n");
  await writeFile(path.join(dir, "other.txt"), "nothing\n");
  await link(path.join(dir, ".env"), path.join(dir, "notes.txt"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function policy(deny: string[], sameFile = true): Promise<PermissionPolicy> {
  return {
    mode: "default",
    rules: { allow: [], ask: [], deny: toRules(deny, "deny", USER).rules },
    paths: { projectDir: dir, homeDir: "/nonexistent-home" },
    cwd: dir,
    shell: await loadShellAnalyzer({ baselineOnly: true }),
    ...(sameFile ? { sameFile: sameFileOnDisk } : {}),
  };
}

describe("a rule naming one file catches its hard links", () => {
  it("Read of the other name is denied by Read(./.env), and by a bare .env rule", async () => {
    for (const rule of ["Read(./.env)", "Read(.env)", "Read(/.env)"]) {
      const decision = decide(
        { toolName: "Read", input: { file_path: "notes.txt" } },
        await policy([rule]),
      );
      expect(decision.behavior, rule).toBe("deny");
    }
  });

  it("searches skip it; an unrelated file is not caught", async () => {
    const p = await policy(["Read(./.env)"]);
    expect(readBlockedBy("Grep", path.join(dir, "notes.txt"), p)).toBeDefined();
    expect(readBlockedBy("Grep", path.join(dir, "other.txt"), p)).toBeUndefined();
  });

  it("Edit(./.env) denied also denies writing the file through its other name", async () => {
    const p = await policy(["Edit(./.env)"]);
    const decision = decide(
      { toolName: "Write", input: { file_path: "notes.txt", content: "x" } },
      p,
    );
    expect(decision.behavior).toBe("deny");
  });

  it("without the identity check only names are compared (what the check adds)", async () => {
    const decision = decide(
      { toolName: "Read", input: { file_path: "notes.txt" } },
      await policy(["Read(./.env)"], false),
    );
    expect(decision.behavior).not.toBe("deny");
  });

  it("only rules that name exactly one file are checked by identity", () => {
    const ctx = { projectDir: "/p", homeDir: "/h" };
    expect(literalFileOf("./.env", ctx)).toBe("/p/.env");
    expect(literalFileOf(".env", ctx)).toBe("/p/.env");
    expect(literalFileOf("~/.aws/credentials", ctx)).toBe("/h/.aws/credentials");
    expect(literalFileOf("//etc/shadow", ctx)).toBe("/etc/shadow");
    expect(literalFileOf("src/**", ctx)).toBeUndefined();
    expect(literalFileOf("*.pem", ctx)).toBeUndefined();
    expect(literalFileOf("secrets/", ctx)).toBeUndefined();
  });
});
