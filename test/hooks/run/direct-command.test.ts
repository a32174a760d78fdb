import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { directCommand, shellPwd } from "../../../source/hooks/run/direct-command.js";
import { type TempDir, tempDir } from "../support.js";

const env = {
  CLAUDE_PROJECT_DIR: "/work/my project",
  HOME: "/home/u",
  PLAIN: "a/b.c",
  PWD: "/x",
  PATH: "/usr/bin:/bin",
};

describe("directCommand: a settings line the shell would run as one plain command", () => {
  it.each([
    ["bash check.sh", "bash", ["check.sh"]],
    [
      "  python3   -u\tguard.py --strict=1 a,b:c@d%e+f  ",
      "python3",
      ["-u", "guard.py", "--strict=1", "a,b:c@d%e+f"],
    ],
    ["./.acai/hooks/x.sh", "./.acai/hooks/x.sh", []],
    ['"$CLAUDE_PROJECT_DIR"/hooks/x.sh', "/work/my project/hooks/x.sh", []],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    ['"${CLAUDE_PROJECT_DIR}/hooks/x.sh" arg', "/work/my project/hooks/x.sh", ["arg"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    ["$HOME/bin/hook ${PLAIN}", "/home/u/bin/hook", ["a/b.c"]],
    ["node 'a b' \"c d\" ''", "node", ["a b", "c d", ""]],
    ["node x=1", "node", ["x=1"]],
    ["node hook.js hook.ts", "node", ["hook.js", "hook.ts"]],
    ["node 'a;b|c>d$e'", "node", ["a;b|c>d$e"]],
  ])("%s", (line, command, args) => {
    expect(directCommand(line, env)).toEqual({ command, args });
  });

  it("a program looked up on PATH keeps the shell when PATH is not set (the shell has a default of its own)", () => {
    const { PATH: _, ...noPath } = env;
    expect(directCommand("bash check.sh", noPath)).toBeUndefined();
    expect(directCommand("/usr/bin/bash check.sh", noPath)).toEqual({
      command: "/usr/bin/bash",
      args: ["check.sh"],
    });
  });

  it.each([
    ["", "an empty line"],
    ["   ", "only blanks"],
    ["a | b", "a pipe"],
    ["a > out", "a redirection"],
    ["a; b", "a list"],
    ["a && b", "an and-list"],
    ["a &", "a background job"],
    ["a *.sh", "a glob"],
    ["a x?", "a glob"],
    ["a [ab]", "a glob"],
    ["~/bin/hook", "a tilde"],
    ["a \\n", "a backslash"],
    ["a $(date)", "a command substitution"],
    ["a `date`", "a command substitution"],
    ["a $((1+1))", "arithmetic"],
    ["a # comment", "a comment"],
    ["a\nb", "two lines"],
    ["(a)", "a subshell"],
    ["{ a; }", "a group"],
    ["FOO=1 node x.js", "an assignment before the program"],
    ["'FOO=1' node", "a quoted program that looks like an assignment: conservative"],
    ["echo hi", "a builtin"],
    ["true", "a builtin"],
    ["cd /tmp", "a builtin"],
    ["exec node x.js", "a builtin"],
    [". ./env.sh", "a builtin"],
    ["if", "a reserved word"],
    ["! node x.js", "a reserved word"],
    ["node $UNSET", "an unset variable"],
    ['node "$UNSET"', "an unset variable, quoted"],
    ["node $CLAUDE_PROJECT_DIR", "an unquoted value with a blank (split)"],
    ["node $PWD", "a variable the shell sets itself"],
    ["node $1", "a positional parameter"],
    ["node $@", "a special parameter"],
    ['node "a\\"b"', "a backslash in double quotes"],
    ['node "a', "an unclosed double quote"],
    ["node 'a", "an unclosed single quote"],
    ["node ${PLAIN", "an unclosed brace"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text, not a template
    ["node ${PLAIN:-x}", "a parameter expansion with an operator"],
    ["node hook.ts", "a TypeScript file after node (acai's runner would use its own node)"],
    ["/hooks/check.mts --x", "a TypeScript file as the program"],
  ])("%j goes through the shell (%s)", (line) => {
    expect(directCommand(line, env)).toBeUndefined();
  });
});

describe("shellPwd: PWD as /bin/sh exports it", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it("keeps an inherited PWD that names the directory (a path through a symlink), else gives its real path", async () => {
    const real = join(dir.path, "real");
    const link = join(dir.path, "link");
    await mkdir(real);
    await symlink(real, link);
    const { realpathSync } = await import("node:fs");
    expect(shellPwd(link, link)).toBe(link);
    expect(shellPwd(link, real)).toBe(link);
    expect(shellPwd("/", link)).toBe(realpathSync(real));
    expect(shellPwd(undefined, link)).toBe(realpathSync(real));
    expect(shellPwd("relative/path", link)).toBe(realpathSync(real));
    expect(shellPwd(join(dir.path, "gone"), real)).toBe(realpathSync(real));
  });
});
