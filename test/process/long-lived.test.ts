/**
 * A long-lived child's stdin (long-lived.ts): the first line written in a
 * tick goes to the child at once — a persistent hook asked in a chain starts
 * reading while acai does its own bookkeeping — and the lines after it in the
 * same tick go out together at the end of the tick, in order.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createContainment } from "../../source/process/containment.js";
import { createProcessStarter, type LongLived } from "../../source/process/long-lived.js";

const started: LongLived[] = [];
afterEach(() => {
  for (const child of started.splice(0)) child.kill();
});

/** `cat` under acai's starter: every line written comes back, in order. */
async function echo(lines: string[]): Promise<LongLived> {
  const child = await createProcessStarter(createContainment())({
    command: "cat",
    args: [],
    cwd: process.cwd(),
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    maxLineBytes: 1024,
    onLine: (line) => lines.push(line),
    onLineTooLong: () => lines.push("(too long)"),
    onExit: () => {},
  });
  started.push(child);
  return child;
}

const until = async (check: () => boolean): Promise<void> => {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
};

describe("a long-lived child's stdin", () => {
  it("takes the first line of a tick at once and the rest together at the tick's end, in order", async () => {
    const lines: string[] = [];
    const child = await echo(lines);
    child.write("first\n");
    // Handed to the kernel already: nothing of it waits in acai.
    expect(child.pendingBytes()).toBe(0);
    child.write("second\n");
    child.write("third\n");
    // Held until the end of the tick, then written in one go.
    expect(child.pendingBytes()).toBe("second\nthird\n".length);
    await new Promise((r) => setImmediate(r));
    expect(child.pendingBytes()).toBe(0);
    await until(() => lines.length >= 3);
    expect(lines).toEqual(["first", "second", "third"]);
    // A later tick's first line goes at once again.
    child.write("fourth\n");
    expect(child.pendingBytes()).toBe(0);
    await until(() => lines.length >= 4);
    expect(lines.at(-1)).toBe("fourth");
  });
});
