/**
 * Programs that run their arguments as another command (`env -i touch x`,
 * `timeout 5 touch x`, `xargs touch`, `sudo touch x`, `bash -c 'touch x'`):
 * one step of unwrapping, pure. Each wrapper's options are read as its
 * manual says; an option it does not know makes the command opaque, since
 * acai can no longer tell which word is the program.
 */
import { shown, type Word } from "./words.js";

export type WrapperStep =
  /** Not a wrapper (or one that runs nothing here, like `command -v`). */
  | { kind: "program" }
  /**
   * Runs `rest` as a command. `transparent`: the wrapper changes nothing an
   * allow rule is about (time, nice, nohup, timeout…), so a rule for `rest`
   * may allow it; sudo, env, exec, xargs… are not.
   */
  | { kind: "wrap"; rest: Word[]; transparent: boolean }
  /** A shell's `-c SCRIPT`: the script is parsed again. */
  | { kind: "script"; script: Word }
  | { kind: "opaque"; reason: string };

interface OptionSpec {
  /** Short options that take a value (`-n 5`, `-n5`). */
  valued: string;
  /** Short options without one. */
  flags: string;
  /** Long options that take a value (given as `--name=value` or `--name value`). */
  longValued?: readonly string[];
  longFlags?: readonly string[];
  /** Options that mean the program runs no command (`command -v`). */
  nothing?: string;
}

const SPECS: Readonly<Record<string, OptionSpec>> = {
  command: { valued: "", flags: "p", nothing: "vV" },
  exec: { valued: "a", flags: "cl" },
  time: { valued: "", flags: "p" },
  nice: { valued: "n", flags: "", longValued: ["adjustment"] },
  nohup: { valued: "", flags: "" },
  setsid: { valued: "", flags: "cfw", longFlags: ["ctty", "fork", "wait"] },
  stdbuf: { valued: "ioe", flags: "", longValued: ["input", "output", "error"] },
  builtin: { valued: "", flags: "" },
  coproc: { valued: "", flags: "" },
  timeout: {
    valued: "ks",
    flags: "v",
    longValued: ["kill-after", "signal"],
    longFlags: ["preserve-status", "foreground", "verbose"],
  },
  xargs: {
    valued: "adEILnPs",
    flags: "0oprtx",
    longValued: [
      "arg-file",
      "delimiter",
      "eof",
      "replace",
      "max-lines",
      "max-args",
      "max-procs",
      "max-chars",
      "process-slot-var",
    ],
    longFlags: ["null", "open-tty", "interactive", "no-run-if-empty", "verbose", "exit"],
  },
  sudo: {
    valued: "ugCDhprtTU",
    flags: "AbEHiknPSs",
    longValued: ["user", "group", "close-from", "chdir", "host", "prompt", "role", "type"],
    longFlags: ["askpass", "background", "preserve-env", "set-home", "login", "non-interactive"],
    nothing: "eKlvV",
  },
  doas: { valued: "uC", flags: "ns" },
  busybox: { valued: "", flags: "" },
  env: {
    valued: "uCS",
    flags: "i0v",
    longValued: ["unset", "chdir", "split-string"],
    longFlags: ["ignore-environment", "null", "debug"],
  },
};

/** Wrappers that an allow rule for the command they run may see through. */
const TRANSPARENT = new Set(["time", "nice", "nohup", "timeout", "setsid", "stdbuf", "command"]);

const SHELLS = new Set([
  "sh",
  "bash",
  "rbash",
  "zsh",
  "dash",
  "ksh",
  "mksh",
  "ash",
  "yash",
  "posh",
]);

/** Shells whose language is not Bash's: a script given to them cannot be judged. */
const OTHER_SHELLS = new Set(["fish", "csh", "tcsh", "nu", "elvish", "xonsh", "rc", "es", "pwsh"]);

export function baseName(program: string): string {
  const slash = program.lastIndexOf("/");
  return slash === -1 ? program : program.slice(slash + 1);
}

/** One step: what `words` (program first) runs. */
export function unwrapStep(words: readonly Word[]): WrapperStep {
  const head = words[0];
  if (head === undefined || !head.literal) return { kind: "program" };
  const name = baseName(head.text);
  if (SHELLS.has(name)) return shellStep(words);
  if (OTHER_SHELLS.has(name) && words.length > 1)
    return {
      kind: "opaque",
      reason: `${name}'s language is not Bash's, so acai cannot judge what it runs`,
    };
  const spec = SPECS[name];
  if (spec === undefined) return { kind: "program" };
  const read = readOptions(words, spec, name === "xargs" ? "xargs" : "plain");
  if (read.kind !== "rest") return read;
  let rest = read.rest;
  if (name === "env" || name === "sudo") rest = dropAssignments(rest);
  if (name === "timeout") rest = rest.slice(1); // the duration
  if (name === "env" && read.split)
    return { kind: "opaque", reason: "env -S splits a string into a command" };
  if (rest.length === 0) return { kind: "program" };
  return { kind: "wrap", rest, transparent: TRANSPARENT.has(name) };
}

type ReadResult =
  | { kind: "rest"; rest: Word[]; split: boolean }
  | { kind: "program" }
  | { kind: "opaque"; reason: string };

/** Skips the options of a wrapper (`words[0]`), up to its command. */
function readOptions(
  words: readonly Word[],
  spec: OptionSpec,
  style: "plain" | "xargs",
): ReadResult {
  const name = (words[0] as Word).text;
  let split = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as Word;
    if (!word.literal) return unclear(name, word);
    const text = word.text;
    if (text === "--") return { kind: "rest", rest: words.slice(i + 1), split };
    if (text === "-" && baseName(name) === "env") continue;
    if (!text.startsWith("-") || text === "-") return { kind: "rest", rest: words.slice(i), split };
    if (baseName(name) === "nice" && /^-\d+$/.test(text)) continue;
    const taken = text.startsWith("--") ? longOption(text, spec) : shortOptions(text, spec, style);
    if (taken.kind === "unknown")
      return {
        kind: "opaque",
        reason: `${shown(name)} has an option acai does not know (${shown(text)})`,
      };
    if (taken.kind === "nothing") return { kind: "program" };
    if (taken.split) split = true;
    if (taken.kind === "value-next") i++;
  }
  return { kind: "rest", rest: [], split };
}

type Taken =
  | { kind: "done"; split?: boolean }
  | { kind: "value-next"; split?: boolean }
  | { kind: "nothing" }
  | { kind: "unknown" };

function longOption(text: string, spec: OptionSpec): Taken {
  const [name = "", value] = text.slice(2).split("=", 2);
  const split = name === "split-string";
  if (spec.longValued?.includes(name))
    return value === undefined ? { kind: "value-next", split } : { kind: "done", split };
  if (spec.longFlags?.includes(name) && value === undefined) return { kind: "done" };
  return { kind: "unknown" };
}

function shortOptions(text: string, spec: OptionSpec, style: "plain" | "xargs"): Taken {
  for (let j = 1; j < text.length; j++) {
    const letter = text[j] as string;
    if (spec.nothing?.includes(letter)) return { kind: "nothing" };
    if (spec.valued.includes(letter)) {
      const split = letter === "S";
      return j === text.length - 1 ? { kind: "value-next", split } : { kind: "done", split };
    }
    // xargs' -e, -i and -l take an optional value attached to them.
    if (style === "xargs" && "eil".includes(letter)) return { kind: "done" };
    if (!spec.flags.includes(letter)) return { kind: "unknown" };
  }
  return { kind: "done" };
}

function dropAssignments(words: Word[]): Word[] {
  let i = 0;
  while (i < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test((words[i] as Word).text)) i++;
  return words.slice(i);
}

function unclear(name: string, word: Word): { kind: "opaque"; reason: string } {
  return {
    kind: "opaque",
    reason: `${shown(name)} is given a word acai cannot know before it runs (${shown(word.text)})`,
  };
}

/**
 * `bash -c SCRIPT`, `sh -ec SCRIPT`: the script. A shell given a file runs
 * that file (a program like any other); one given neither reads its commands
 * from its input, which acai cannot see.
 */
function shellStep(words: readonly Word[]): WrapperStep {
  const name = (words[0] as Word).text;
  let wantsScript = false;
  for (let i = 1; i < words.length; i++) {
    const word = words[i] as Word;
    if (!word.literal) return unclear(name, word);
    const text = word.text;
    if (text === "--" || text === "-") {
      // The options end; the next word is the script (-c) or the file run.
      const next = words[i + 1];
      if (next === undefined) break;
      if (!next.literal) return unclear(name, next);
      return wantsScript ? { kind: "script", script: next } : { kind: "program" };
    }
    if (/^[-+]o$/.test(text) || text === "-O" || text === "+O") {
      i++;
      continue;
    }
    if (/^--(?:login|norc|noprofile|posix|restricted|noediting|verbose)$/.test(text)) continue;
    if (/^-[a-zA-Z]+$/.test(text) || /^\+[a-zA-Z]+$/.test(text)) {
      if (text.includes("s") && text.startsWith("-")) return readsInput(name);
      if (text.includes("c") && text.startsWith("-")) wantsScript = true;
      continue;
    }
    if (text.startsWith("-")) {
      return {
        kind: "opaque",
        reason: `${shown(name)} has an option acai does not know (${shown(text)})`,
      };
    }
    // bash reads options after -c too (`bash -c -x 'touch x'`): the script is the first operand.
    return wantsScript ? { kind: "script", script: word } : { kind: "program" };
  }
  return wantsScript
    ? { kind: "opaque", reason: `${shown(name)} -c has no script` }
    : readsInput(name);
}

function readsInput(name: string): WrapperStep {
  return {
    kind: "opaque",
    reason: `${shown(name)} reads its commands from its input, which acai cannot judge`,
  };
}
