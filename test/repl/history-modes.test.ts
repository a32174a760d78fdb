import { statSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { appendHistory } from "../../source/repl/history.js";

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), "acai-history-modes-"));
});
afterEach(() => rm(root, { recursive: true, force: true }));

const modeOf = (p: string) => statSync(p).mode & 0o777;

it("keeps prompt history owner-only: new folders 0700, the file 0600, an old 0644 file tightened", async () => {
  const file = join(root, "home", "repl-history");
  expect(await appendHistory(file, "my prompt")).toBeUndefined();
  expect(modeOf(join(root, "home"))).toBe(0o700);
  expect(modeOf(file)).toBe(0o600);

  const old = join(root, "old-history");
  await writeFile(old, "");
  await chmod(old, 0o644);
  expect(await appendHistory(old, "another")).toBeUndefined();
  expect(modeOf(old)).toBe(0o600);
});
