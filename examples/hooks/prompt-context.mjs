#!/usr/bin/env node
// Node example (plain JavaScript, no dependencies): on every user prompt, adds
// the current git branch and the number of uncommitted files as context for
// the model. Outside a git repository it adds nothing.
import { execFileSync } from "node:child_process";

const METADATA = {
  name: "prompt-context",
  description: "Tells the model the git branch and how many files are uncommitted",
  events: ["user_prompt"],
  timeout_ms: 5000,
};

if ((process.env.HOOK_ACTION ?? "execute") === "describe") {
  console.log(JSON.stringify(METADATA));
  process.exit(0);
}

let input = "";
for await (const chunk of process.stdin) input += chunk;
const event = JSON.parse(input);
const cwd = process.env.ACAI_PROJECT_DIR || event.cwd;

function git(...args) {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
  } catch {
    return null;
  }
}

// symbolic-ref also works before the first commit; a detached HEAD falls back to the commit.
const branch = (
  git("symbolic-ref", "--short", "HEAD") ?? git("rev-parse", "--short", "HEAD")
)?.trim();
if (branch) {
  const dirty = (git("status", "--porcelain") ?? "").split("\n").filter(Boolean).length;
  console.log(
    JSON.stringify({
      action: "continue",
      context: `Git: on branch ${branch}, ${dirty} uncommitted file${dirty === 1 ? "" : "s"}.`,
    }),
  );
}
