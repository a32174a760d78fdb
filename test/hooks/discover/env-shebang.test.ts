import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  envInterpreterOf,
  envInterpreterOfFile,
} from "../../../source/hooks/discover/env-shebang.js";
import { type TempDir, tempDir } from "../support.js";

const first = (line: string) => envInterpreterOf(Buffer.from(`${line}\necho hi\n`, "latin1"));

describe("envInterpreterOf: the NAME of a #!/usr/bin/env NAME line", () => {
  it.each([
    ["#!/usr/bin/env bash", "bash"],
    ["#!/usr/bin/env python3", "python3"],
    ["#! /usr/bin/env  node ", "node"],
    ["#!/usr/bin/env\tpython3.12", "python3.12"],
    ["#!/usr/bin/env g++-13", "g++-13"],
  ])("%j → %s", (line, name) => {
    expect(first(line)).toBe(name);
  });

  it.each([
    ["#!/bin/bash", "an interpreter by path"],
    ["#!/bin/env bash", "another env"],
    ["#!/usr/bin/env -S node --flag", "env's options"],
    ["#!/usr/bin/env -i bash", "env's options"],
    ["#!/usr/bin/env A=1 bash", "an assignment"],
    ["#!/usr/bin/env node --flag", "an argument, which the kernel passes as part of one word"],
    ["#!/usr/bin/env /opt/bin/tool", "a path"],
    ["#!/usr/bin/env bash\r", "a carriage return (the kernel keeps it in the name)"],
    ["#!/usr/bin/env", "no name"],
    ["# /usr/bin/env bash", "no #!"],
    [`#!/usr/bin/env ${"x".repeat(260)}`, "a line longer than the kernel reads"],
  ])("%j → none (%s)", (line) => {
    expect(first(line)).toBeUndefined();
  });

  it("a file of one line without its newline: none (left to the kernel)", () => {
    expect(envInterpreterOf(Buffer.from("#!/usr/bin/env bash"))).toBeUndefined();
  });
});

describe("envInterpreterOfFile: only for a file this process may execute", () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(async () => {
    await dir.cleanup();
  });

  it("names the interpreter of an executable file, none once it is not executable", async () => {
    const file = join(dir.path, "hook");
    const text = "#!/usr/bin/env bash\ncat >/dev/null\n";
    await writeFile(file, text, { mode: 0o755 });
    expect(envInterpreterOfFile(file, Buffer.from(text))).toBe("bash");
    await chmod(file, 0o644);
    expect(envInterpreterOfFile(file, Buffer.from(text))).toBeUndefined();
  });
});
