/**
 * Claude Code's handler fields on settings hooks, through `acai -p`: `if`
 * (a permission rule tested before anything starts; a compound line that
 * hides the command still runs the hook), `once`, `enabled: false`,
 * `disableAllHooks`; a typo'd group key refuses the file; and the audit log
 * says why each hook did not run.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

/** A hook that notes each run in `runs.log` (one line per run, with its label), then answers `exit`. */
function noting(d: AcaiDirs, label: string, exit = 0): string {
  const log = path.join(d.cwd, "runs.log");
  const block = exit === 2 ? `; echo "${label} blocks" >&2` : "";
  return `cat > /dev/null; echo ${label} >> '${log}'${block}; exit ${exit}`;
}

async function runs(d: AcaiDirs): Promise<string[]> {
  const text = await readFile(path.join(d.cwd, "runs.log"), "utf8").catch(() => "");
  return text.split("\n").filter(Boolean);
}

async function setUp(d: AcaiDirs, settings: object, commands: string[]): Promise<void> {
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  const turns = [
    ...commands.map((command) => ({ tool_calls: [{ name: "Bash", input: { command } }] })),
    { text: "done" },
  ];
  await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns }));
}

const go = (d: AcaiDirs) =>
  runAcai({ args: ["-p", "go", "--model", "replay:replay.json", "--yes"], dirs: d });

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

interface AuditLine {
  kind?: string;
  event: string;
  hook?: string;
  tool_call_id?: string;
  hooks?: { hook: string; status: string; why?: string; detail?: string }[];
}

async function auditLines(d: AcaiDirs): Promise<AuditLine[]> {
  const text = await readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditLine);
}

describe('"if" on a settings hook', () => {
  it("runs the hook only for calls the rule catches, a compound line included, and logs why not", async () => {
    const d = await makeAcaiDirs("acai-hook-if-");
    dirs = d;
    const guard = { type: "command", if: "Bash(git push:*)", command: noting(d, "guard", 2) };
    await setUp(d, { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guard] }] } }, [
      "echo safe > safe.txt",
      "echo hidden && git push origin main > pushed.txt",
    ]);
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await exists(path.join(d.cwd, "safe.txt"))).toBe(true);
    expect(await exists(path.join(d.cwd, "pushed.txt"))).toBe(false);
    expect(await runs(d)).toEqual(["guard"]);
    const considered = (await auditLines(d)).filter(
      (l) => l.kind === "considered" && l.event === "before_tool",
    );
    expect(considered).toHaveLength(2);
    const [first, second] = considered;
    expect(first?.hooks?.[0]).toMatchObject({ status: "not_run", why: "if" });
    expect(first?.hooks?.[0]?.detail).toContain("Bash(git push:*)");
    expect(second?.hooks?.[0]).toMatchObject({ status: "planned" });
    expect(first?.tool_call_id).toBeTruthy();
  });

  it("is refused when it is not a permission rule, naming the file", async () => {
    const d = await makeAcaiDirs("acai-hook-if-");
    dirs = d;
    const bad = { type: "command", if: "Bash(git push", command: noting(d, "bad") };
    await setUp(d, { hooks: { PreToolUse: [{ hooks: [bad] }] } }, ["echo x"]);
    const run = await go(d);
    expect(run.stderr).toContain(path.join(d.acaiHome, "settings.json"));
    expect(run.stderr).toContain('"if"');
    expect(await runs(d)).toEqual([]);
  });
});

describe("once, enabled, disableAllHooks", () => {
  it('"once" runs a hook at the first matching call only', async () => {
    const d = await makeAcaiDirs("acai-hook-once-");
    dirs = d;
    const hook = { type: "command", once: true, command: noting(d, "once") };
    const every = { type: "command", command: noting(d, "every") };
    await setUp(d, { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook, every] }] } }, [
      "echo 1",
      "echo 2",
      "echo 3",
    ]);
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await runs(d)).toEqual(["once", "every", "every", "every"]);
    const whys = (await auditLines(d))
      .filter((l) => l.kind === "considered")
      .flatMap((l) => l.hooks ?? [])
      .filter((h) => h.status === "not_run")
      .map((h) => h.why);
    expect(whys).toEqual(["once", "once"]);
  });

  it('"enabled": false keeps a hook from running, and the audit log says so', async () => {
    const d = await makeAcaiDirs("acai-hook-enabled-");
    dirs = d;
    const off = { type: "command", enabled: false, command: noting(d, "off", 2) };
    await setUp(d, { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [off] }] } }, [
      "echo ran > ran.txt",
    ]);
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await runs(d)).toEqual([]);
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(true);
    const line = (await auditLines(d)).find((l) => l.kind === "considered");
    expect(line?.hooks?.[0]).toMatchObject({ status: "not_run", why: "disabled" });
    expect(line?.hooks?.[0]?.detail).toContain('"enabled": false');
  });

  it("disableAllHooks in the user's settings: no hook runs", async () => {
    const d = await makeAcaiDirs("acai-hook-disable-all-");
    dirs = d;
    const guard = { type: "command", command: noting(d, "guard", 2) };
    await setUp(
      d,
      { disableAllHooks: true, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guard] }] } },
      ["echo ran > ran.txt"],
    );
    const run = await go(d);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(await runs(d)).toEqual([]);
    expect(await exists(path.join(d.cwd, "ran.txt"))).toBe(true);
    const line = (await auditLines(d)).find((l) => l.kind === "considered");
    expect(line?.hooks?.[0]?.detail).toContain("disableAllHooks");
  });
});

describe("a settings hook group with an unknown key", () => {
  it("refuses the file, naming the key and the nearest one", async () => {
    const d = await makeAcaiDirs("acai-hook-group-key-");
    dirs = d;
    const guard = { type: "command", command: noting(d, "guard") };
    await setUp(d, { hooks: { PreToolUse: [{ macher: "Bash", hooks: [guard] }] } }, ["echo x"]);
    const run = await go(d);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain(path.join(d.acaiHome, "settings.json"));
    expect(run.stderr).toContain('"hooks.PreToolUse[0].macher"');
    expect(run.stderr).toContain('Did you mean "matcher"?');
    expect(await runs(d)).toEqual([]);
  });
});
