/**
 * Whether bubblewrap runs here with a PID namespace: the sandbox's tests run
 * only where it does (CI installs it; elsewhere they say they skip).
 */
import { spawnSync } from "node:child_process";

export const bwrapWorks =
  process.platform === "linux" &&
  spawnSync("bwrap", ["--ro-bind", "/", "/", "--unshare-pid", "--proc", "/proc", "true"]).status ===
    0;
