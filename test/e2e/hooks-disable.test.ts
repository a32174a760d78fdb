/**
 * `acai hooks disable NAME` / `acai hooks enable NAME`: they write
 * `disabledHooks` in the user's settings (other fields kept) and never a
 * project's file; a disabled hook does not run in `acai -p` and `acai hooks
 * list` shows it as disabled with why; an unknown name is refused with the
 * nearest known one and changes nothing.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const guard = {
  type: "command",
  name: "guard",
  command: 'cat > /dev/null; echo "guard says no" >&2; exit 2',
};

async function setUp(d: AcaiDirs): Promise<string> {
  const file = path.join(d.acaiHome, "settings.json");
  const settings = {
    model: "replay:replay.json",
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guard] }] },
  };
  await writeFile(file, JSON.stringify(settings));
  const turns = [
    { tool_calls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] },
    { text: "done" },
  ];
  await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
  return file;
}

const acai = (d: AcaiDirs, ...args: string[]) => runAcai({ args, dirs: d });
const go = (d: AcaiDirs) => acai(d, "-p", "go", "--model", "replay:replay.json", "--yes");
const ran = (d: AcaiDirs) =>
  readFile(path.join(d.cwd, "ran.txt"), "utf8").then(
    () => true,
    () => false,
  );

describe("acai hooks disable / enable", () => {
  it("disable keeps the hook from running and listed as disabled; enable lets it run again", async () => {
    const d = await makeAcaiDirs("acai-hooks-disable-");
    dirs = d;
    const file = await setUp(d);

    const off = await acai(d, "hooks", "disable", "guard");
    expect(off.exitCode, off.stderr).toBe(0);
    expect(off.stdout).toContain(`added to disabledHooks in ${file}`);
    const written = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(written.disabledHooks).toEqual(["guard"]);
    expect(written.model).toBe("replay:replay.json");
    expect(written.hooks).toEqual({ PreToolUse: [{ matcher: "Bash", hooks: [guard] }] });

    const again = await acai(d, "hooks", "disable", "guard");
    expect(again.exitCode).toBe(0);
    expect(again.stdout).toContain("already in disabledHooks");

    const list = await acai(d, "hooks", "list");
    expect(list.stdout).toMatch(/guard {2}\(user settings\) {2}\[disabled\]/);
    expect(list.stdout).toContain("disabled: disabledHooks in the user's settings names it");
    const json = JSON.parse((await acai(d, "hooks", "list", "--json")).stdout) as {
      hooks: { name: string; disabled?: string }[];
    };
    expect(json.hooks.find((h) => h.name === "guard")?.disabled).toContain("disabledHooks");

    const free = await go(d);
    expect(free.exitCode, free.stderr).toBe(0);
    expect(await ran(d)).toBe(true);

    const on = await acai(d, "hooks", "enable", "guard");
    expect(on.exitCode, on.stderr).toBe(0);
    const after = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
    expect(after).not.toHaveProperty("disabledHooks");
    expect(after.hooks).toEqual(written.hooks);

    await rm(path.join(d.cwd, "ran.txt"));
    const blocked = await go(d);
    expect(blocked.stderr).toContain("hook guard blocked before_tool: guard says no");
    expect(await ran(d)).toBe(false);

    const notListed = await acai(d, "hooks", "enable", "guard");
    expect(notListed.exitCode).toBe(0);
    expect(notListed.stdout).toContain("is not in disabledHooks");
  });

  it("an unknown name is refused with the nearest known one, and nothing is written", async () => {
    const d = await makeAcaiDirs("acai-hooks-disable-");
    dirs = d;
    const file = await setUp(d);
    const before = await readFile(file, "utf8");
    const typo = await acai(d, "hooks", "disable", "gaurd");
    expect(typo.exitCode).toBe(2);
    expect(typo.stderr).toContain("No hook is named gaurd. Did you mean guard?");
    expect(typo.stderr).toContain("acai hooks list");
    expect(await readFile(file, "utf8")).toBe(before);
  });

  it("a project's hook is disabled in the user's settings; the project's file is not touched", async () => {
    const d = await makeAcaiDirs("acai-hooks-disable-");
    dirs = d;
    const userFile = await setUp(d);
    await mkdir(path.join(d.cwd, ".acai"));
    const projectFile = path.join(d.cwd, ".acai", "settings.json");
    const projectHook = { type: "command", name: "proj-lint", command: "cat > /dev/null" };
    const projectText = JSON.stringify({
      hooks: { PostToolUse: [{ matcher: "Bash", hooks: [projectHook] }] },
    });
    await writeFile(projectFile, projectText);

    const off = await acai(d, "hooks", "disable", "proj-lint");
    expect(off.exitCode, off.stderr).toBe(0);
    expect(await readFile(projectFile, "utf8")).toBe(projectText);
    const user = JSON.parse(await readFile(userFile, "utf8")) as { disabledHooks?: string[] };
    expect(user.disabledHooks).toEqual(["proj-lint"]);
  });
});
