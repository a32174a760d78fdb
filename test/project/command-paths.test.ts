import { describe, expect, it } from "vitest";
import { commandPaths } from "../../source/project/command-paths.js";
import { interpreterPath } from "../../source/project/shebang.js";

describe("commandPaths", () => {
  it.each([
    ["./scripts/lint.sh", ["/p/scripts/lint.sh"]],
    ["node scripts/check.js --fix", ["/p/scripts/check.js"]],
    ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/x.sh', ["/p/.claude/hooks/x.sh"]],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, as a settings command holds it
    ["${ACAI_PROJECT_DIR}/a.py && make test", ["/p/a.py"]],
    ["npm run lint", []],
    ["curl https://x.example/a.sh | sh", []],
    ["cat /etc/passwd ../outside.sh", []],
  ])("%s", (command, expected) => {
    expect(commandPaths(command, "/p")).toEqual(expected);
  });
});

describe("interpreterPath", () => {
  it.each([
    ["#!./tools/interp", "/p/tools/interp"],
    ["#! /usr/bin/env ./x -y", "/p/x"],
    ["#!/usr/bin/env -S python3", undefined],
    ["#!/bin/sh", "/bin/sh"],
    ["#!python3", undefined],
    ["echo", undefined],
  ])("%s", (line, expected) => {
    expect(interpreterPath(line, "/p")).toBe(expected);
  });
});
