import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { applyCompletion, completionAt } from "../../source/repl/completion.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-complete-"));
  await mkdir(path.join(dir, "src"));
  await writeFile(path.join(dir, "src", "app.ts"), "");
  await writeFile(path.join(dir, ".env"), "");
  await writeFile(path.join(dir, "bad\nname"), "");
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const at = (value: string) => ({ value, cursor: value.length });

describe("completion", () => {
  it("'/' at the start of the line offers the commands that begin so; not mid-line", () => {
    expect(completionAt(at("/c"), dir)?.items).toEqual(["/clear", "/compact"]);
    expect(completionAt(at("/help"), dir)).toBeUndefined();
    expect(completionAt(at("why /c"), dir)).toBeUndefined();
    const done = applyCompletion(at("/co"), completionAt(at("/co"), dir)!, "/compact");
    expect(done).toEqual({ value: "/compact ", cursor: 9 });
  });

  it("'@' offers files and folders one level at a time; hidden ones only after '.'; control characters never", () => {
    expect(completionAt(at("see @"), dir)?.items).toEqual(["src/"]);
    expect(completionAt(at("see @."), dir)?.items).toEqual([".env"]);
    expect(completionAt(at("see @src/"), dir)?.items).toEqual(["src/app.ts"]);
    const c = completionAt(at("see @s"), dir);
    expect(c && applyCompletion(at("see @s"), c, "src/")).toEqual({
      value: "see @src/",
      cursor: 9,
    });
    expect(completionAt(at("mail@x"), dir)).toBeUndefined();
    expect(completionAt(at("@nothing-here/"), dir)).toBeUndefined();
  });
});
