#!/usr/bin/env node
// The `acai` bin. Kept to Node built-ins so the code cache is on before anything heavy loads.
import module from "node:module";
import os from "node:os";
import path from "node:path";
import { resolveAcaiPaths } from "../config/paths.js";
import { ensurePrivateDirSync } from "../config/private-files.js";

const cwd = process.cwd();
const paths = resolveAcaiPaths({ env: process.env, homeDir: os.homedir(), cwd });

// V8 code cache for acai and its dependencies: roughly halves start-up (docs/architecture.md).
// NODE_COMPILE_CACHE (set by the user or the test suite) takes precedence; NODE_DISABLE_COMPILE_CACHE turns it off.
if (process.env.NODE_DISABLE_COMPILE_CACHE === undefined) {
  try {
    const cacheDir = path.join(paths.cacheDir, "node-compile");
    // Created here so that ACAI_HOME and its folders are 0700 (Node would make them 0755).
    ensurePrivateDirSync(cacheDir);
    module.enableCompileCache?.(cacheDir);
  } catch {
    // A cache that cannot be created only costs speed.
  }
}

const print = process.argv.some((arg) => arg === "-p" || arg.startsWith("--print"));

// `acai -p` loads the session's modules now, beside the CLI's, not after the options are
// parsed. Any other start (the REPL, which draws its prompt first; a subcommand; a prompt
// piped in without -p) loads them when it needs them (decision 0073).
if (print) import("./session-entry.js").catch(() => undefined);

const { runFromProcess } = await import("./run.js");
await runFromProcess();
