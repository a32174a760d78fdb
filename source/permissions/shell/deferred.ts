/**
 * The Bash parser, loaded at the first permission check instead of while a
 * session starts (issue 25: web-tree-sitter and the grammar's WebAssembly
 * were ~20 ms before the first model request, and a session needs no parse
 * until the model has asked for a tool). The check awaits `ready()`, so a
 * decision never sees an unloaded parser; a line analysed before that, or
 * after the grammar failed to load, is opaque: no allow rule passes it and
 * a deny or ask rule that may concern it applies (fail closed).
 */
import type { CommandAnalysis, ShellAnalyzer } from "./analyze.js";

export function deferredShellAnalyzer(load: () => Promise<ShellAnalyzer>): ShellAnalyzer {
  let loaded: ShellAnalyzer | undefined;
  let failure = "the Bash parser has not loaded yet";
  let loading: Promise<void> | undefined;
  return {
    analyze(line) {
      return loaded ? loaded.analyze(line) : opaque(failure);
    },
    ready() {
      loading ??= load().then(
        (analyzer) => {
          loaded = analyzer;
        },
        (error: unknown) => {
          const said = error instanceof Error ? error.message : String(error);
          failure = `the Bash parser could not load (${said}); reinstall acai`;
        },
      );
      return loading;
    },
  };
}

function opaque(reason: string): CommandAnalysis {
  return { commands: [], writes: [], opaque: [reason] };
}
