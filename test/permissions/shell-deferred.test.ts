/**
 * The Bash parser loaded at the first permission check (shell/deferred.ts):
 * opaque until ready() resolved, loaded once however many checks wait on it,
 * and a grammar that fails to load leaves every line opaque with the reason.
 */
import { describe, expect, it } from "vitest";
import { decide } from "../../source/permissions/decide.js";
import { toRules } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { deferredShellAnalyzer } from "../../source/permissions/shell/deferred.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";

describe("a deferred Bash parser", () => {
  it("loads nothing until ready(), then parses as the loaded one does", async () => {
    let loads = 0;
    const shell = deferredShellAnalyzer(() => {
      loads++;
      return loadShellAnalyzer({ baselineOnly: true });
    });
    expect(loads).toBe(0);
    expect(shell.analyze("git status").opaque).toEqual(["the Bash parser has not loaded yet"]);
    await Promise.all([shell.ready?.(), shell.ready?.()]);
    await shell.ready?.();
    expect(loads).toBe(1);
    const analysis = shell.analyze("git status > out.txt");
    expect(analysis.commands.map((c) => c.text)).toEqual(["git status"]);
    expect(analysis.writes).toEqual(["out.txt"]);
    expect(analysis.opaque).toEqual([]);
  });

  it("fails closed before it is ready: an allow rule does not pass a line, a deny rule still refuses it", async () => {
    const shell = deferredShellAnalyzer(() => loadShellAnalyzer({ baselineOnly: true }));
    const source = { scope: "flag" as const, label: "--allowedTools" };
    const allow = toRules(["Bash(git status)"], "allow", source).rules;
    const deny = toRules(["Bash(rm:*)"], "deny", source).rules;
    const policy = (shellOf: ShellAnalyzer, denying = deny) => ({
      mode: "default" as const,
      rules: { allow, ask: [], deny: denying },
      paths: { projectDir: "/p", homeDir: "/h" },
      cwd: "/p",
      shell: shellOf,
    });
    const call = (command: string) => ({ toolName: "Bash", input: { command } });
    // Not understood, so not allowed (asked); and a deny rule that cannot be checked refuses.
    expect(decide(call("git status"), policy(shell, [])).behavior).toBe("ask");
    expect(decide(call("git status"), policy(shell)).behavior).toBe("deny");
    expect(decide(call("rm -rf x"), policy(shell)).behavior).toBe("deny");
    await shell.ready?.();
    expect(decide(call("git status"), policy(shell)).behavior).toBe("allow");
    expect(decide(call("rm -rf x"), policy(shell)).behavior).toBe("deny");
  });

  it("says why when the grammar cannot load, and every line stays opaque", async () => {
    const shell = deferredShellAnalyzer(async () => {
      throw new Error("tree-sitter-bash.wasm: no such file");
    });
    await expect(shell.ready?.()).resolves.toBeUndefined();
    expect(shell.analyze("ls").opaque).toEqual([
      "the Bash parser could not load (tree-sitter-bash.wasm: no such file); reinstall acai",
    ]);
  });
});
