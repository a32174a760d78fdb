import { beforeAll, describe, expect, it } from "vitest";
import { catchesCommand } from "../../source/permissions/bash.js";
import { bashRuleCannotCatch, PLAIN_PROGRAMS } from "../../source/permissions/bash-prefilter.js";
import { type PermissionPolicy, ruleCatches } from "../../source/permissions/decide.js";
import { NO_RULES, type PermissionRule } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

/** The full test of a `Bash(content)` rule on a line, as decide.ts makes it from the parse. */
function fullCatches(content: string, line: string): boolean {
  const analysis = shell.analyze(line);
  return catchesCommand(content, line, analysis) || analysis.opaque.length > 0;
}

const CONTENTS = ["git push:*", "git push", "git * main", "rm -rf:*", "git:*", ":*", "*", "ls"];

const LINES = [
  "git push",
  "git push origin main",
  "git push-notes",
  "git status",
  "git log --oneline",
  "ls -la",
  "npm test",
  "cd x && git push",
  "cd x&&git push",
  "git status; git push",
  "git status|git push",
  "git status\ngit push",
  "git status\r\ngit push",
  "git status # push",
  "bash -c 'git push'",
  'sh -c "git push origin"',
  "FOO=1 git push",
  "env FOO=1 git push",
  "sudo git push",
  "time git push",
  "nice -n 5 git push",
  "command git push",
  "timeout 5 git push",
  "xargs git push",
  "npx git push",
  "npm exec git push",
  "find . -exec git push ;",
  "watch git push",
  "eval git push",
  "source push.sh",
  ". ./x",
  "X=1",
  '"git" push',
  "'git' 'push'",
  "g\\it pu\\sh",
  "git\\\n push",
  "git $'push'",
  "git pu$x",
  "$(echo git) push",
  "`echo git` push",
  "/usr/bin/git push",
  "./git push",
  "git  push",
  " git push",
  "git push ",
  "\tgit push",
  "git\tpush",
  "git {push,pull}",
  "git pu?h",
  "git pu*",
  "git ~/push",
  "if true; then git push; fi",
  "(git push)",
  "{ git push; }",
  "git status > push",
  "git status 2>push",
  "rm -rf build",
  "rm -rf",
  "rm -r -f x",
  "cat main",
  "git x main",
  "git checkout main",
  "python3",
  "node",
  "ls --color=auto -1 src/a.ts",
  "git -C x push",
  "git -c alias.p=push p",
  "make push",
  "docker run git push",
  "kubectl exec pod -- git push",
  "cargo run -- git push",
  "fi",
  "git",
];

describe("the Bash prefilter (a hook's `if`, decide.ts ruleCatches)", () => {
  it("never says a rule cannot catch a line the full test says it catches", () => {
    let noes = 0;
    for (const content of CONTENTS) {
      for (const line of LINES) {
        if (!bashRuleCannotCatch(content, line)) continue;
        noes++;
        expect(fullCatches(content, line), `Bash(${content}) on ${JSON.stringify(line)}`).toBe(
          false,
        );
      }
    }
    // It does answer for the plain lines (else it saves nothing).
    expect(noes).toBeGreaterThan(40);
    expect(bashRuleCannotCatch("git push:*", "git status")).toBe(true);
    expect(bashRuleCannotCatch("git push:*", "git push-notes")).toBe(true);
  });

  it("says maybe for what it cannot be sure of: wrappers, compounds, quoting, expansions, newlines", () => {
    for (const line of [
      "cd x && git push",
      "bash -c 'git push'",
      "FOO=1 git push",
      "env FOO=1 git push",
      '"git" push',
      "git status\ngit push",
      "git  push",
      "/usr/bin/git push",
      "npm exec git push",
      "source push.sh",
      "X=1",
      "python3",
      "git $'push'",
    ]) {
      expect(bashRuleCannotCatch("git push:*", line), JSON.stringify(line)).toBe(false);
      expect(fullCatches("git push:*", line), JSON.stringify(line)).toBe(true);
    }
  });

  it("agrees with the full test on generated lines (seeded)", () => {
    const words = [
      "git",
      "push",
      "status",
      "ls",
      "-la",
      "rm",
      "-rf",
      "x",
      "main",
      "cd",
      "&&",
      ";",
      "|",
      "\n",
      "bash",
      "-c",
      "'git push'",
      "env",
      "A=1",
      "sudo",
      "npx",
      "exec",
      "npm",
      "eval",
      "$x",
      "\\",
      "#",
      "*",
      ">",
      "out",
      "make",
      "docker",
      "--",
      "-C",
      "timeout",
      "5",
    ];
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    let noes = 0;
    for (let i = 0; i < 3000; i++) {
      const length = 1 + next(6);
      const parts = Array.from({ length }, () => words[next(words.length)] as string);
      const line = parts.join(next(5) === 0 ? "  " : " ");
      const content = CONTENTS[next(CONTENTS.length)] as string;
      if (!bashRuleCannotCatch(content, line)) continue;
      noes++;
      expect(fullCatches(content, line), `Bash(${content}) on ${JSON.stringify(line)}`).toBe(false);
    }
    expect(noes).toBeGreaterThan(100);
  });

  it("rests on the parse: every plain program, with any plain arguments, is one command whose forms are the line", () => {
    const argumentSets = [
      [],
      ["x"],
      ["-c", "git", "push"],
      ["exec", "git", "push"],
      ["x", "git", "push"],
      ["dlx", "git"],
      ["-exec", "git", "push", "+"],
      ["--command=git"],
      ["-S", "git", "push"],
      ["run", "--", "git", "push"],
      ["-n", "5", "git", "push"],
      ["a=b", "c:d", "e,f", "g@h", "i%j", "k+l", "./m/n.ts"],
    ];
    for (const program of PLAIN_PROGRAMS) {
      for (const args of argumentSets) {
        const line = [program, ...args].join(" ");
        const analysis = shell.analyze(line);
        expect(analysis.opaque, line).toEqual([]);
        expect(analysis.writes, line).toEqual([]);
        expect(analysis.commands.length, line).toBe(1);
        expect(new Set(analysis.commands[0]?.catchForms), line).toEqual(new Set([line]));
      }
    }
  });

  it("is what ruleCatches uses: a hook's `if` answers the same with it", () => {
    const policy: PermissionPolicy = {
      mode: "default",
      rules: NO_RULES,
      paths: { projectDir: "/p", homeDir: "/h" },
      cwd: "/p",
      shell,
    };
    const rule = (content: string): PermissionRule => ({
      text: `Bash(${content})`,
      tool: "Bash",
      content,
      list: "deny",
      source: { scope: "user", label: "test" },
    });
    for (const content of CONTENTS) {
      for (const line of LINES) {
        const call = { toolName: "Bash", input: { command: line } };
        expect(
          ruleCatches(rule(content), call, policy),
          `Bash(${content}) on ${JSON.stringify(line)}`,
        ).toBe(fullCatches(content, line));
      }
    }
  });
});
