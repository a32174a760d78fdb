/**
 * Finding a marked process by its name (`onlyNamed`): the process that exec'd
 * under the marker, never the shell about to exec it, whose command line
 * mentions the marker too (decision 0059's sweep tests took the shell's pid
 * once, then missed the process mid-exec on a second scan).
 */
import { spawn } from "node:child_process";
import { afterEach, expect, it } from "vitest";
import { Markers, onlyNamed, pidsNamed, pidsWith, waitFor } from "./survivors.js";

const markers = new Markers();

afterEach(() => markers.killAll());

it("skips a shell that mentions the marker and returns the process named by it once exec'd", async () => {
  const marker = markers.next();
  // The shell cannot exec the marked sleep before it reads a line from us.
  const shell = spawn("/bin/bash", ["-c", `read -r _; exec -a ${marker} sleep 300`], {
    stdio: ["pipe", "ignore", "ignore"],
  });
  try {
    expect(await waitFor(() => pidsWith(marker).includes(shell.pid!))).toBe(true);
    expect(pidsNamed(marker)).toEqual([]);
    shell.stdin.write("go\n");
    expect(await onlyNamed(marker)).toBe(shell.pid);
  } finally {
    shell.kill("SIGKILL");
  }
});
