import { describe, expect, it } from "vitest";
import { parseEnvFile } from "../../source/session/env-file-parse.js";

const base = { HOME: "/home/me", PATH: "/usr/bin" };

describe("parseEnvFile: CLAUDE_ENV_FILE as data", () => {
  it("reads export lines, quotes, $NAME expansion and comments", () => {
    const text = [
      "# set by a hook",
      "export FOO=bar",
      "export Q='a $literal b'",
      'export D="x \\"y\\" $FOO"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
      'export PATH="$HOME/bin:${PATH}"',
      "PLAIN=1 OTHER=two",
      "export SPACED=val   # trailing comment",
      "export ONLY_NAME",
      "",
    ].join("\n");
    const { vars, skipped } = parseEnvFile(text, base);
    expect(skipped).toEqual([]);
    expect(vars).toEqual({
      FOO: "bar",
      Q: "a $literal b",
      D: 'x "y" bar',
      PATH: "/home/me/bin:/usr/bin",
      PLAIN: "1",
      OTHER: "two",
      SPACED: "val",
    });
  });

  it("skips shell code, naming the line and why, and sets nothing of that line", () => {
    const lines = [
      "export A=$(whoami)",
      "export B=`id`",
      "export C=1; rm -rf /",
      "source venv/bin/activate",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
      "export E=${X:-default}",
      'export F="unclosed',
      "unset HOME",
      "export G=ok H=$(x)",
    ];
    const { vars, skipped } = parseEnvFile(lines.join("\n"), base);
    expect(vars).toEqual({});
    expect(skipped.map((s) => s.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(skipped[0]?.why).toMatch(/\$\(…\) runs a command/);
    expect(skipped[3]?.why).toMatch(/not an `export NAME=value` line/);
  });
});
