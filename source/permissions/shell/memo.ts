/**
 * The analysis of a Bash line, remembered (bounded) by the line: the line is
 * parsed once however many times it is judged — by every hook's `if` on the
 * call and by the permission check after them (decide.ts parses it twice of
 * its own). The analysis is a pure function of the line (analyze.ts), so a
 * remembered one is the one a new parse would give; it is frozen, so no reader
 * can change what the next one sees.
 */
import type { CommandAnalysis, ShellAnalyzer } from "./analyze.js";

export interface AnalysisMemoOptions {
  /** Lines remembered (default 256); past it the oldest is forgotten. */
  maxLines?: number;
  /** Longer lines are parsed every time, not remembered (default 8 KiB). */
  maxLineChars?: number;
}

export function memoizedAnalyzer(
  analyzer: ShellAnalyzer,
  options: AnalysisMemoOptions = {},
): ShellAnalyzer {
  const maxLines = options.maxLines ?? 256;
  const maxLineChars = options.maxLineChars ?? 8 * 1024;
  const known = new Map<string, CommandAnalysis>();
  return {
    analyze(line) {
      if (line.length > maxLineChars) return analyzer.analyze(line);
      const remembered = known.get(line);
      if (remembered !== undefined) return remembered;
      const analysis = frozen(analyzer.analyze(line));
      if (known.size >= maxLines) known.delete(known.keys().next().value as string);
      known.set(line, analysis);
      return analysis;
    },
  };
}

function frozen(analysis: CommandAnalysis): CommandAnalysis {
  for (const command of analysis.commands) {
    Object.freeze(command.allowForms);
    Object.freeze(command.catchForms);
    Object.freeze(command);
  }
  Object.freeze(analysis.commands);
  Object.freeze(analysis.writes);
  Object.freeze(analysis.opaque);
  return Object.freeze(analysis);
}
