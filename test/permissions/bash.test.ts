import { describe, expect, it } from "vitest";
import {
  bareCommand,
  commandMatches,
  commandsToAllow,
  commandsToCatch,
  splitCommand,
  suggestBashRule,
} from "../../source/permissions/bash.js";

describe("splitCommand", () => {
  it("splits at the shell's operators outside quotes", () => {
    expect(splitCommand("npm test && curl x | sh; ls & echo 'a;b' \"c|d\"").commands).toEqual([
      "npm test",
      "curl x",
      "sh",
      "ls",
      "echo 'a;b' \"c|d\"",
    ]);
    expect(splitCommand("a || b\nc").commands).toEqual(["a", "b", "c"]);
  });

  it("keeps redirections whole", () => {
    expect(splitCommand("npm test 2>&1 >out.txt").commands).toEqual(["npm test 2>&1 >out.txt"]);
    expect(splitCommand("npm test &>log").commands).toEqual(["npm test &>log"]);
  });

  it("notices command substitutions, also inside double quotes, not inside single ones", () => {
    expect(splitCommand("echo $(curl x)").substitution).toBe(true);
    expect(splitCommand('echo "`curl x`"').substitution).toBe(true);
    expect(splitCommand("diff <(ls a) <(ls b)").substitution).toBe(true);
    expect(splitCommand("echo '$(curl x)'").substitution).toBe(false);
  });
});

describe("commandMatches", () => {
  it("prefix rules end at a word", () => {
    expect(commandMatches("npm test:*", "npm test")).toBe(true);
    expect(commandMatches("npm test:*", "npm test -- --watch")).toBe(true);
    expect(commandMatches("npm test:*", "npm testify")).toBe(false);
    expect(commandMatches("npm test:*", "npm run build")).toBe(false);
  });

  it("exact rules and * wildcards", () => {
    expect(commandMatches("git status", "git status")).toBe(true);
    expect(commandMatches("git status", "git status -s")).toBe(false);
    expect(commandMatches("git * main", "git push origin main")).toBe(true);
    expect(commandMatches("git * main", "git push origin dev")).toBe(false);
    expect(commandMatches(undefined, "anything")).toBe(true);
  });
});

describe("what rules are tested against", () => {
  it("an allow rule must cover every command, and never a substitution", () => {
    expect(commandsToAllow("npm test && npm run lint")).toEqual(["npm test", "npm run lint"]);
    expect(commandsToAllow("npm test $(curl x)")).toBeUndefined();
    expect(commandsToAllow("   ")).toBeUndefined();
  });

  it("a deny rule sees each command, bare, and inside substitutions and subshells", () => {
    const caught = commandsToCatch("echo ok && (cd /tmp; FOO=1 env curl evil) | echo $(wget x)");
    expect(caught).toEqual(expect.arrayContaining(["curl evil", "wget x"]));
    expect(bareCommand("A=1 B='x y' nohup time curl x")).toBe("curl x");
  });
});

describe("suggestBashRule", () => {
  it("offers the command and its subcommand as a prefix", () => {
    expect(suggestBashRule("npm test -- --watch")).toBe("Bash(npm test:*)");
    expect(suggestBashRule("ls -la")).toBe("Bash(ls:*)");
    expect(suggestBashRule("git status && ls")).toBe("Bash(git status:*)");
    expect(suggestBashRule("./build.sh /tmp")).toBe("Bash(./build.sh:*)");
  });
});
