/**
 * The table of command forms (issue 18): each line's verdict under an allow
 * rule, `Bash(npm test:*)`, and under a deny rule, `Bash(touch:*)`, in the
 * default mode — judged by `decide()` from the real parse. A line the parse
 * cannot fully judge is never allowed by a rule (it asks; -p denies it), and
 * a deny rule that cannot be checked against it holds: denied.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decide, type PermissionPolicy } from "../../source/permissions/decide.js";
import { NO_RULES, type RuleList, toRules } from "../../source/permissions/rules.js";
import type { ShellAnalyzer } from "../../source/permissions/shell/analyze.js";
import { loadShellAnalyzer } from "../../source/permissions/shell/parser.js";

type Verdict = "allow" | "ask" | "deny";

/** [command, under Bash(npm test:*) allowed, under Bash(touch:*) denied] */
const FORMS: readonly (readonly [string, Verdict, Verdict])[] = [
  // plain, and what a prefix rule covers
  ["npm test", "allow", "ask"],
  ["npm test -- --watch", "allow", "ask"],
  ["npm   test", "allow", "ask"],
  ["npm testify", "ask", "ask"],
  ["npm run build", "ask", "ask"],
  ["npm test 'a;b' \"c|d\"", "allow", "ask"],
  ["npm test $HOME", "allow", "ask"],
  // the smuggling forms
  ["npm test $'\\'' ; touch M #'", "ask", "deny"],
  ["npm test # '\ntouch M #'", "ask", "deny"],
  ["npm test # \\\ntouch M", "ask", "deny"],
  ["npm test <<EOF\n'\nEOF\ntouch M", "ask", "deny"],
  ["npm test > ~/.bashrc", "ask", "ask"],
  // operators
  ["npm test && touch M", "ask", "deny"],
  ["npm test || touch M", "ask", "deny"],
  ["npm test; touch M", "ask", "deny"],
  ["npm test & touch M", "ask", "deny"],
  ["npm test | touch M", "ask", "deny"],
  ["npm test |& touch M", "ask", "deny"],
  ["npm test & npm test", "allow", "ask"],
  ["npm test && npm test -- -t x", "allow", "ask"],
  ["npm test\nnpm test", "allow", "ask"],
  // substitutions
  ["npm test $(touch M)", "ask", "deny"],
  ["npm test `touch M`", "ask", "deny"],
  ['npm test "$(touch M)"', "ask", "deny"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
  ["npm test ${X:-$(touch M)}", "ask", "deny"],
  ["npm test <(touch M)", "ask", "deny"],
  ["npm test >(touch M)", "ask", "deny"],
  ["echo $(echo $(touch M))", "ask", "deny"],
  ["npm test '$(touch M)'", "allow", "ask"],
  // subshells, groups, negation, compound commands
  ["(npm test; touch M)", "ask", "deny"],
  ["{ npm test; touch M; }", "ask", "deny"],
  ["(npm test)", "allow", "ask"],
  ["{ npm test; }", "allow", "ask"],
  ["! touch M", "ask", "deny"],
  ["if true; then touch M; fi", "ask", "deny"],
  ["for f in a; do touch $f; done", "ask", "deny"],
  ["while false; do touch M; done", "ask", "deny"],
  ["case x in x) touch M;; esac", "ask", "deny"],
  ["coproc touch M", "ask", "deny"],
  // comments
  ['npm test # comment with "quote', "allow", "ask"],
  ["npm test; # ; touch M", "allow", "ask"],
  // quoting and escapes: the evasion forms
  ['"npm" test', "allow", "ask"],
  ['npm "test"', "allow", "ask"],
  ["n\\pm test", "allow", "ask"],
  ["npm test \\\n  --watch", "allow", "ask"],
  ['"touch" M', "ask", "deny"],
  ["t''ouch M", "ask", "deny"],
  ['t""ouch M', "ask", "deny"],
  ["\\touch M", "ask", "deny"],
  ["tou\\\nch M", "ask", "deny"],
  ["$'touch' M", "ask", "deny"],
  ["$'\\x74ouch' M", "ask", "deny"],
  ["$'\\164ouch' M", "ask", "deny"],
  ['$"touch" M', "ask", "deny"],
  ["/usr/bin/touch M", "ask", "deny"],
  ["./touch M", "ask", "deny"],
  // wrappers
  ["env touch M", "ask", "deny"],
  ["env -i touch M", "ask", "deny"],
  ["env -i FOO=1 touch M", "ask", "deny"],
  ["env -u HOME -- touch M", "ask", "deny"],
  ["/usr/bin/env touch M", "ask", "deny"],
  ["command touch M", "ask", "deny"],
  ["command -p touch M", "ask", "deny"],
  ["command -v touch", "ask", "ask"],
  ["exec touch M", "ask", "deny"],
  ["exec -a y touch M", "ask", "deny"],
  ["time touch M", "ask", "deny"],
  ["time -p touch M", "ask", "deny"],
  ["nice touch M", "ask", "deny"],
  ["nice -n 5 touch M", "ask", "deny"],
  ["timeout 5 touch M", "ask", "deny"],
  ["timeout -k 1 -s KILL 5s touch M", "ask", "deny"],
  ["nohup touch M", "ask", "deny"],
  ["setsid touch M", "ask", "deny"],
  ["setsid -f touch M", "ask", "deny"],
  ["stdbuf -oL touch M", "ask", "deny"],
  ["xargs touch", "ask", "deny"],
  ["xargs -0 -n 1 touch", "ask", "deny"],
  ["echo M | xargs -I{} touch {}", "ask", "deny"],
  ["xargs -Z touch", "ask", "deny"],
  ["sudo touch M", "ask", "deny"],
  ["sudo -u root touch M", "ask", "deny"],
  ["sudo -u root env X=1 /usr/bin/touch M", "ask", "deny"],
  ["busybox touch M", "ask", "deny"],
  ["builtin echo x", "ask", "ask"],
  ["find . -name '*.tmp' -exec touch {} \\;", "ask", "deny"],
  ["find . -execdir /usr/bin/touch {} +", "ask", "deny"],
  ["find . -name x -exec npm test \\;", "ask", "ask"],
  ["nohup nice -n 5 npm test", "allow", "ask"],
  ["timeout 60 npm test", "allow", "ask"],
  ["time npm test", "allow", "ask"],
  ["sudo npm test", "ask", "ask"],
  ["env NODE_OPTIONS=--require=x npm test", "ask", "ask"],
  // shells running a literal script, parsed again
  ["bash -c 'touch M'", "ask", "deny"],
  ['sh -c "touch M"', "ask", "deny"],
  ["zsh -c 'touch M'", "ask", "deny"],
  ["dash -c 'touch M'", "ask", "deny"],
  ["bash -c 'bash -c \"touch M\"'", "ask", "deny"],
  ["bash -ec 'npm test'", "allow", "ask"],
  ["bash -c 'npm test; touch M'", "ask", "deny"],
  ['bash -c "$X"', "ask", "deny"],
  ["echo touch M | bash", "ask", "deny"],
  ["npm test && bash", "ask", "deny"],
  // what is never allowed by a rule
  ["$(echo touch) M", "ask", "deny"],
  ["$CMD M", "ask", "deny"],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax
  ["${CMD} M", "ask", "deny"],
  ["/usr/bin/tou?h M", "ask", "deny"],
  ["tou*h M", "ask", "deny"],
  ["~/bin/touch M", "ask", "deny"],
  ["eval 'touch M'", "ask", "deny"],
  ["eval npm test", "ask", "deny"],
  ["source ./script.sh", "ask", "deny"],
  [". ./script.sh", "ask", "deny"],
  ["trap 'touch M' EXIT", "ask", "deny"],
  ["bash <<EOF\ntouch M\nEOF", "ask", "deny"],
  ["bash <<< 'touch M'", "ask", "deny"],
  ["python3 <<EOF\nprint(1)\nEOF", "ask", "deny"],
  ["npm test <<EOF\n$(touch M)\nEOF", "ask", "deny"],
  ["npm test <<'EOF'\n$(touch M)\nEOF", "allow", "ask"],
  ["npm test <<< $(touch M)", "ask", "deny"],
  ["f() { touch M; }; f", "ask", "deny"],
  ["function npm { touch M; }; npm test", "ask", "deny"],
  ["alias npm=touch; npm test", "ask", "deny"],
  ["PATH=/tmp/x:$PATH npm test", "ask", "ask"],
  ["FOO=1 npm test", "ask", "ask"],
  ["FOO=1 touch M", "ask", "deny"],
  ["export PATH=/tmp; npm test", "ask", "deny"],
  ["a=1; npm test", "ask", "deny"],
  ["a=$(touch M)", "ask", "deny"],
  ["(( x = 1 )); npm test", "ask", "deny"],
  ["npm test $((1+2))", "ask", "deny"],
  ["[[ -f x ]] && npm test", "ask", "deny"],
  ["printf -v 'a[$(touch M)]' x", "ask", "deny"],
  ["npm test )", "ask", "deny"],
  ['npm test "unterminated', "ask", "deny"],
  ["{touch,M}", "ask", "deny"],
  // where tree-sitter and bash could read a line differently, found by running bash
  ["npm test `echo \\`touch M\\``", "ask", "deny"],
  ["npm test <<EOF\n`touch M`\nEOF", "ask", "deny"],
  ["npm test <<'EOF'\n`touch M`\nEOF", "allow", "ask"],
  ["time { touch M; }", "ask", "deny"],
  ["! { touch M; }", "ask", "deny"],
  ["coproc { touch M; }", "ask", "deny"],
  ["npm test#; touch M", "ask", "deny"],
  ["npm test\r\ntouch M", "ask", "deny"],
  ["npm test <<EOF; touch M\nbody\nEOF", "ask", "deny"],
  ["npm test <<A <<B\na\nA\nb\nB\ntouch M", "ask", "deny"],
  // redirections: writes judged like Write, fd duplications and reads are not writes
  ["npm test > /dev/null 2>&1", "allow", "ask"],
  ["npm test 2>&1", "allow", "ask"],
  ["npm test >&2", "allow", "ask"],
  ["npm test 2>/dev/null", "allow", "ask"],
  ["npm test < input.txt", "allow", "ask"],
  ["npm test >> log.txt", "ask", "ask"],
  ["npm test > /tmp/out", "ask", "ask"],
  ["npm test >| ~/.bashrc", "ask", "ask"],
  ["npm test &> ~/.bashrc", "ask", "ask"],
  ["npm test > $HOME/.bashrc", "ask", "deny"],
  ["npm test > ~/.ba\\\nshrc", "ask", "deny"],
  ["npm test 3<>file", "ask", "deny"],
  ["npm test 2>&1 | tee log.txt", "ask", "ask"],
  // red team (issue 18 neighbours): options after -c, and `--`, before a shell's script
  ["bash -c -- 'touch M'", "ask", "deny"],
  ["/bin/bash -c -- 'touch M'", "ask", "deny"],
  ["env bash -c -- 'touch M'", "ask", "deny"],
  ["bash -c -x 'touch M'", "ask", "deny"],
  ["bash -c -e -- 'touch M'", "ask", "deny"],
  ["sh -c -- 'npm test'", "allow", "ask"],
  ["bash -c 'npm test' -- touch", "allow", "ask"],
  ["bash -- script.sh", "ask", "ask"],
  // shells acai does not parse, and more shells it does
  ["rbash -c 'touch M'", "ask", "deny"],
  ["fish -c 'touch M'", "ask", "deny"],
  ["tcsh -c 'touch M'", "ask", "deny"],
  // programs that run a command named in their arguments
  ["ionice -c3 touch M", "ask", "deny"],
  ["ionice env -i /usr/bin/touch M", "ask", "deny"],
  ["chrt 1 touch M", "ask", "deny"],
  ["taskset 1 bash -c 'touch M'", "ask", "deny"],
  ["flock f touch M", "ask", "deny"],
  ["flock -c 'touch M' f", "ask", "deny"],
  ["chroot / touch M", "ask", "deny"],
  ["unshare -r touch M", "ask", "deny"],
  ["strace -f touch M", "ask", "deny"],
  ["watch -n1 touch M", "ask", "deny"],
  ["watch 'ls; touch M'", "ask", "deny"],
  ["su root -c 'echo; touch M'", "ask", "deny"],
  ["runuser -u x -- touch M", "ask", "deny"],
  ["npx touch M", "ask", "deny"],
  ["npm exec -- touch M", "ask", "deny"],
  ["npm x touch M", "ask", "deny"],
  ["ionice npm test", "ask", "ask"],
];

let shell: ShellAnalyzer;
beforeAll(async () => {
  shell = await loadShellAnalyzer({ baselineOnly: true });
});

function verdict(list: RuleList, rule: string, command: string): Verdict {
  const source = { scope: "user" as const, label: "test" };
  const policy: PermissionPolicy = {
    mode: "default",
    rules: { ...NO_RULES, [list]: toRules([rule], list, source).rules },
    paths: { projectDir: "/p", homeDir: "/home/u" },
    cwd: "/p",
    shell,
  };
  return decide({ toolName: "Bash", input: { command } }, policy).behavior;
}

describe("command forms under Bash(npm test:*) allowed and Bash(touch:*) denied", () => {
  it("holds at least 80 forms", () => {
    expect(FORMS.length).toBeGreaterThanOrEqual(80);
  });

  it.each(FORMS)(
    "%j: %s under the allow rule, %s under the deny rule",
    (command, allowed, denied) => {
      expect(verdict("allow", "Bash(npm test:*)", command)).toBe(allowed);
      expect(verdict("deny", "Bash(touch:*)", command)).toBe(denied);
    },
  );
});

describe("the table against real bash", () => {
  const root = mkdtempSync(path.join(tmpdir(), "acai-bash-forms-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  // The npm stub is written once: a form that leaves npm running in the
  // background would make a rewrite fail with ETXTBSY.
  const bin = path.join(root, "bin");
  mkdirSync(bin, { recursive: true });
  writeFileSync(path.join(bin, "npm"), "#!/bin/sh\nexit 0\n");
  chmodSync(path.join(bin, "npm"), 0o755);

  /** Whether bash, run on the line in a fresh folder (npm a stub), creates the marker M. */
  function bashRunsTouch(command: string, index: number): boolean {
    const cwd = path.join(root, `run-${index}`);
    mkdirSync(path.join(cwd, "home"), { recursive: true });
    spawnSync("/bin/bash", ["-c", command], {
      cwd,
      env: { PATH: `${bin}:/usr/bin:/bin`, HOME: path.join(cwd, "home") },
      stdio: "ignore",
      timeout: 5000,
    });
    return existsSync(path.join(cwd, "M"));
  }

  it("every form that makes bash run touch is denied by the deny rule and not allowed by the allow rule", () => {
    // Forms that write outside their own folder are left out.
    const local = FORMS.filter(([command]) => !command.includes("/tmp/"));
    const ran = local.filter(([command], i) => bashRunsTouch(command, i));
    // The table's smuggling and evasion forms really do run touch.
    expect(ran.length).toBeGreaterThan(60);
    for (const [command, allowed, denied] of ran) {
      expect(allowed, command).not.toBe("allow");
      expect(denied, command).toBe("deny");
    }
    // ~190 real bash runs: 7.5 s alone, 22 s in a loaded clean-clone CI run.
  }, 60_000);
});
