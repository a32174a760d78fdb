import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describe, expect, it } from "vitest";
import { isBusy, whenNotBusy } from "../../source/sqlite/when-not-busy.js";

/** A real "database is locked" from SQLite: a second connection writing while the first holds the write lock. */
function realBusyError(): unknown {
  const dir = mkdtempSync(path.join(os.tmpdir(), "acai-busy-"));
  try {
    const file = path.join(dir, "x.db");
    const a = new DatabaseSync(file);
    const b = new DatabaseSync(file, { timeout: 0 });
    a.exec("CREATE TABLE t (x)");
    a.exec("BEGIN IMMEDIATE");
    try {
      b.exec("INSERT INTO t VALUES (1)");
      return undefined;
    } catch (error) {
      return error;
    } finally {
      a.exec("ROLLBACK");
      a.close();
      b.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("whenNotBusy", () => {
  it("recognises SQLite's busy error, and nothing else", () => {
    expect(isBusy(realBusyError())).toBe(true);
    expect(isBusy(new Error("no such table: agents"))).toBe(false);
    expect(isBusy(undefined)).toBe(false);
  });

  it("tries a busy step again, and returns what it gives once it goes through", async () => {
    let calls = 0;
    const busy = realBusyError();
    const result = await whenNotBusy(async () => {
      calls++;
      if (calls < 3) throw busy;
      return "joined";
    });
    expect(result).toBe("joined");
    expect(calls).toBe(3);
  });

  it("throws any other error at once, and a busy one after its last try", async () => {
    let calls = 0;
    await expect(
      whenNotBusy(async () => {
        calls++;
        throw new Error("no such table: agents");
      }),
    ).rejects.toThrow("no such table");
    expect(calls).toBe(1);

    calls = 0;
    const busy = realBusyError();
    await expect(
      whenNotBusy(async () => {
        calls++;
        throw busy;
      }),
    ).rejects.toBe(busy);
    expect(calls).toBe(4);
  });
});
