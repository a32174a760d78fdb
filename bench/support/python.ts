import { spawnSync } from "node:child_process";

/**
 * The interpreter `command` runs in the end (`sys.executable`): where `python3`
 * on PATH is a wrapper — pyenv's shim is a bash script that runs `pyenv`
 * first, ~120 ms a start — a bench's Python processes would otherwise start
 * through it: its start would be most of every figure, and the load average
 * read during the runs (a 1-minute mean) would be that start's, not the runs'.
 * What is compared runs the same interpreter either way. `command` itself when
 * it cannot say.
 */
export function realInterpreter(command: string): string {
  const asked = spawnSync(command, ["-c", "import sys; print(sys.executable)"], {
    encoding: "utf8",
  });
  const found = asked.status === 0 ? asked.stdout.trim() : "";
  return found.startsWith("/") ? found : command;
}
