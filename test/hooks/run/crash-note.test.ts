import { describe, expect, it } from "vitest";
import { exitTwoCrashNote } from "../../../source/hooks/run/crash-note.js";

describe("exitTwoCrashNote", () => {
  it("notes the shells' own error lines on exit 2", () => {
    for (const stderr of [
      "/p/.acai/hooks/guard: line 9: syntax error: unexpected end of file",
      "/p/guard.sh: line 3: syntax error near unexpected token `)'",
      'sh: 1: Syntax error: "(" unexpected',
      "bash: -c: line 1: unexpected EOF while looking for matching `\"'",
      "/p/guard: line 5: jqq: command not found",
    ]) {
      expect(exitTwoCrashNote({ exitCode: 2, stderr }), stderr).toContain(
        "looks like a crash of the hook's script, not a decision",
      );
    }
  });

  it("leaves decisions alone: other exit codes and reasons a hook writes", () => {
    expect(
      exitTwoCrashNote({
        exitCode: 1,
        stderr: "/p/g: line 9: syntax error: unexpected end of file",
      }),
    ).toBeUndefined();
    expect(exitTwoCrashNote({ exitCode: 2, stderr: "no rm -rf here" })).toBeUndefined();
    expect(
      exitTwoCrashNote({ exitCode: 2, stderr: "refused: the command has a syntax error" }),
    ).toBeUndefined();
  });
});
