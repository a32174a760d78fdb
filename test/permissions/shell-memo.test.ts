import { describe, expect, it } from "vitest";
import type { CommandAnalysis, ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { memoizedAnalyzer } from "../../source/permissions/shell/memo.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";

/** An analyzer that counts the lines it is asked to parse. */
function counting(): { analyzer: ShellAnalyzer; parsed: string[] } {
  const parsed: string[] = [];
  const analyzer: ShellAnalyzer = {
    analyze(line): CommandAnalysis {
      parsed.push(line);
      return {
        commands: [{ text: line, needsRule: true, allowForms: [line], catchForms: [line] }],
        writes: [],
        opaque: [],
      };
    },
  };
  return { analyzer, parsed };
}

describe("the remembered analysis of a line (shell/memo.ts)", () => {
  it("parses a line once however often it is judged, and gives the same frozen analysis", () => {
    const { analyzer, parsed } = counting();
    const memo = memoizedAnalyzer(analyzer);
    const first = memo.analyze("git push");
    expect(memo.analyze("git push")).toBe(first);
    expect(memo.analyze("git status")).not.toBe(first);
    expect(parsed).toEqual(["git push", "git status"]);
    expect(Object.isFrozen(first)).toBe(true);
    expect(() => first.opaque.push("x")).toThrow(TypeError);
    expect(() => first.commands[0]?.catchForms.push("x")).toThrow(TypeError);
    expect(() => {
      (first.commands[0] as { needsRule: boolean }).needsRule = false;
    }).toThrow(TypeError);
  });

  it("is bounded: past maxLines the oldest line is parsed again; long lines are never kept", () => {
    const { analyzer, parsed } = counting();
    const memo = memoizedAnalyzer(analyzer, { maxLines: 2, maxLineChars: 10 });
    memo.analyze("a");
    memo.analyze("b");
    memo.analyze("c"); // forgets "a"
    memo.analyze("b");
    memo.analyze("a");
    const long = "x".repeat(11);
    memo.analyze(long);
    memo.analyze(long);
    expect(parsed).toEqual(["a", "b", "c", "a", long, long]);
  });

  it("the session's analyzer remembers: the second analysis of a line is the first, equal to a fresh parse", async () => {
    const shell = await loadShellAnalyzer({ baselineOnly: true });
    const line = "cd x && FOO=1 git push origin main > out.txt";
    const once = shell.analyze(line);
    expect(shell.analyze(line)).toBe(once);
    const fresh = await loadShellAnalyzer({ baselineOnly: true });
    expect(structuredClone(fresh.analyze(line))).toEqual(structuredClone(once));
    expect(once.writes).toContain("x/out.txt");
  });
});
