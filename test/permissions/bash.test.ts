import { beforeAll, describe, expect, it } from "vitest";
import {
  allowingRule,
  catchesCommand,
  commandMatches,
  suggestBashRule,
} from "../../source/permissions/bash.js";
import { NO_SHELL_PARSER, type ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer, MAX_LINE_CHARS } from "../../source/permissions/shell/parser.js";
import { ansiC } from "../../source/permissions/shell/words.js";

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

describe("the analysis of a line", () => {
  it("lists every simple command, nested ones included, in source order", () => {
    const analysis = shell.analyze("npm test && curl x | sh; ls & echo 'a;b' \"c|d\" $(wget y)");
    expect(analysis.commands.map((c) => c.text)).toEqual([
      "npm test",
      "curl x",
      "sh",
      "ls",
      "wget y",
      "echo 'a;b' \"c|d\" $(wget y)",
    ]);
  });

  it("normalises words: quotes, escapes, $'…' and line continuations", () => {
    const forms = (line: string) => shell.analyze(line).commands[0]?.allowForms;
    expect(forms(`"git" 'sta'tus`)).toEqual(["git status"]);
    expect(forms("g\\it st\\\natus")).toEqual(["git status"]);
    expect(forms("$'git' \"status\"")).toEqual(["git status"]);
    expect(ansiC("\\x74\\157\\u0075ch\\n\\'\\q")).toBe("touch\n'\\q");
  });

  it("lists redirection targets as writes; fd duplications, /dev/null and reads are not", () => {
    expect(
      shell.analyze("a > out.txt 2>&1 >> log && b &> ~/x < in.txt > /dev/null").writes,
    ).toEqual(["out.txt", "log", "~/x"]);
    expect(shell.analyze("a >&2 2>/dev/null 1>&-").writes).toEqual([]);
  });

  it("says why a line cannot be judged", () => {
    expect(shell.analyze("$CMD x").opaque).toEqual(["the program is not a fixed word ($CMD)"]);
    expect(shell.analyze("npm test > $F").opaque[0]).toContain("expansion");
    expect(shell.analyze("echo $(").opaque[0]).toContain("does not parse");
    expect(shell.analyze("x".repeat(MAX_LINE_CHARS + 1)).opaque[0]).toContain("longer than");
    expect(NO_SHELL_PARSER.analyze("ls").opaque).toHaveLength(1);
  });

  it("walks only so deep a line nested thousands of levels, and quotes long words short", () => {
    const nests: [string, string][] = [
      ["$(", ")"],
      ["{ ", "; }"],
      ['"$(', ')"'],
      ["(", ")"],
    ];
    for (const [open, close] of nests) {
      const analysis = shell.analyze(`${open.repeat(5000)}touch M${close.repeat(5000)}`);
      expect(analysis.opaque.length, open).toBeGreaterThan(0);
      for (const reason of analysis.opaque) expect(reason.length, open).toBeLessThan(200);
    }
  });

  it("follows bash -c only so deep, then gives up", () => {
    let line = "touch M";
    for (let i = 0; i < 6; i++) line = `bash -c ${JSON.stringify(line)}`;
    const analysis = shell.analyze(line);
    expect(analysis.opaque.join()).toContain("nested more than");
  });
});

describe("commandMatches", () => {
  it("prefix rules match the command and longer ones at a word boundary", () => {
    expect(commandMatches("npm test:*", "npm test")).toBe(true);
    expect(commandMatches("npm test:*", "npm test -- --watch")).toBe(true);
    expect(commandMatches("npm test:*", "npm testify")).toBe(false);
    expect(commandMatches("npm test:*", "npm run build")).toBe(false);
  });

  it("exact and wildcard rules", () => {
    expect(commandMatches("git status", "git status")).toBe(true);
    expect(commandMatches("git status", "git status -s")).toBe(false);
    expect(commandMatches("git * main", "git push origin main")).toBe(true);
    expect(commandMatches("git * main", "git push origin dev")).toBe(false);
    expect(commandMatches(undefined, "anything")).toBe(true);
  });
});

describe("allow and catch over the analysis", () => {
  const rule = (content: string) => ({ content });

  it("an allow rule needs every command covered and nothing opaque", () => {
    const both = [rule("npm test:*"), rule("npm run lint")];
    expect(allowingRule(shell.analyze("npm test && npm run lint"), both)).toBe(both[0]);
    expect(allowingRule(shell.analyze("npm test $(curl x)"), both)).toBeUndefined();
    expect(allowingRule(shell.analyze("   "), both)).toBeUndefined();
    expect(
      allowingRule(shell.analyze("npm test; eval x"), [rule("npm test:*"), rule("eval:*")]),
    ).toBeUndefined();
  });

  it("a deny rule sees each command, through wrappers, in substitutions and subshells", () => {
    const line = "echo ok && (cd /tmp; FOO=1 env curl evil) | echo $(nohup time /bin/wget x)";
    const analysis = shell.analyze(line);
    expect(catchesCommand("curl:*", line, analysis)).toBe(true);
    expect(catchesCommand("wget:*", line, analysis)).toBe(true);
    expect(catchesCommand("rm:*", line, analysis)).toBe(false);
  });
});

describe("suggestBashRule", () => {
  it("offers the command and its subcommand as a prefix, seen through harmless wrappers", () => {
    const suggest = (line: string) => suggestBashRule(line, shell.analyze(line));
    expect(suggest("npm test -- --watch")).toBe("Bash(npm test:*)");
    expect(suggest("ls -la")).toBe("Bash(ls:*)");
    expect(suggest("git status && ls")).toBe("Bash(git status:*)");
    expect(suggest("./build.sh /tmp")).toBe("Bash(./build.sh:*)");
    expect(suggest("timeout 5 npm test")).toBe("Bash(npm test:*)");
    expect(suggest('"git" status')).toBe("Bash(git status:*)");
  });
});
