/**
 * Programs that run another command named somewhere in their arguments, whose
 * options acai does not model one by one (`ionice -c3 touch x`, `flock f
 * touch x`, `chroot / touch x`, `npx touch x`, `watch 'touch x'`), pure.
 *
 * What they reach is for deny and ask rules only: every suffix of their
 * arguments that starts at an operand is a command they may run, and every
 * string they hand to a shell (`su -c STR`, `watch STR`) is a script they
 * may run. An allow rule still has to cover the command as written.
 */
import type { Word } from "./words.js";
import { baseName } from "./wrappers.js";

export interface RunnerReach {
  /** Commands the runner may run (each a suffix of its words). */
  commands: Word[][];
  /** Shell scripts the runner may run. */
  scripts: string[];
}

const RUNNERS = new Set([
  "ionice",
  "chrt",
  "taskset",
  "flock",
  "chroot",
  "unshare",
  "nsenter",
  "setpriv",
  "prlimit",
  "numactl",
  "strace",
  "ltrace",
  "valgrind",
  "catchsegv",
  "gdb",
  "watch",
  "script",
  "su",
  "runuser",
  "sg",
  "pkexec",
  "firejail",
  "systemd-run",
  "fakeroot",
  "faketime",
  "eatmydata",
  "nocache",
  "unbuffer",
  "rlwrap",
  "setarch",
  "linux32",
  "linux64",
  "cgexec",
  "gosu",
  "su-exec",
  "chpst",
  "dumb-init",
  "tini",
  "xvfb-run",
  "dbus-run-session",
  "ssh-agent",
  "torsocks",
  "proxychains",
  "proxychains4",
  "chronic",
  "parallel",
  "npx",
  "bunx",
  "pnpx",
]);

/** Package managers' subcommands that run a command (`npm exec touch x`). */
const PACKAGE_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  npm: ["exec", "x"],
  pnpm: ["exec", "dlx"],
  yarn: ["exec", "dlx"],
  bun: ["x", "exec"],
};

/** Runners whose `-c STR` / `--command=STR` is a shell script. */
const SCRIPT_OPTION = new Set(["su", "runuser", "script", "flock", "sg"]);

/** What a runner (`words[0]`) may run; nothing for any other program. */
export function runnerReach(words: readonly Word[]): RunnerReach {
  const name = baseName(words[0]?.text ?? "");
  let from = 1;
  if (!RUNNERS.has(name)) {
    const subcommands = PACKAGE_RUNNERS[name];
    if (subcommands === undefined || !subcommands.includes(words[1]?.text ?? "")) {
      return { commands: [], scripts: [] };
    }
    from = 2;
  }
  const commands: Word[][] = [];
  const scripts: string[] = [];
  for (let i = from; i < words.length; i++) {
    const word = words[i] as Word;
    if (!word.literal) continue;
    if (!word.text.startsWith("-")) commands.push(words.slice(i));
    if (name === "watch" && !word.text.startsWith("-")) scripts.push(word.text);
    const script = SCRIPT_OPTION.has(name) ? scriptOption(words, i) : undefined;
    if (script !== undefined) scripts.push(script);
  }
  return { commands, scripts };
}

/** `-c STR`, `--command STR`, `--command=STR` at `i`. */
function scriptOption(words: readonly Word[], i: number): string | undefined {
  const text = (words[i] as Word).text;
  if (text.startsWith("--command=")) return text.slice("--command=".length);
  if (text !== "-c" && text !== "--command") return undefined;
  const next = words[i + 1];
  return next?.literal ? next.text : undefined;
}
