/**
 * The examples under examples/hooks/ and the repo's own .acai/hooks/, each
 * exercised the way a user would: copied into a project and run through
 * `acai hooks test`, plus a table of commands for the guard (run directly: fast).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFile, mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, REPO_ROOT, tempProject } from "./helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

async function install(d: AcaiDirs, from: string): Promise<string> {
  const target = path.join(d.cwd, ".acai", "hooks", path.basename(from));
  await mkdir(path.dirname(target), { recursive: true });
  await copyFile(from, target);
  return path.relative(d.cwd, target);
}

interface Report {
  exit_code: number;
  decision: Record<string, unknown>;
  stderr: string;
}

async function hookTest(
  d: AcaiDirs,
  file: string,
  event: string,
  input?: unknown,
): Promise<{ code: number | null; report: Report }> {
  const args = ["hooks", "test", file, "--event", event, "--json"];
  if (input !== undefined) args.push("--input", JSON.stringify(input));
  const result = await acai(d, args);
  expect(result.stderr).toBe("");
  return { code: result.exitCode, report: JSON.parse(result.stdout) as Report };
}

describe("examples/hooks", () => {
  it("bash: protect-outside-writes blocks writes outside the project only", async () => {
    dirs = await tempProject();
    const file = await install(
      dirs,
      path.join(REPO_ROOT, "examples", "hooks", "protect-outside-writes.sh"),
    );
    const outside = await hookTest(dirs, file, "before_tool", {
      tool_name: "Write",
      tool_input: { file_path: "../../etc/passwd", content: "x" },
    });
    expect(outside.code).toBe(2);
    expect(outside.report.decision.reason).toMatch(/is outside the project/);
    const inside = await hookTest(dirs, file, "before_tool", {
      tool_name: "Edit",
      tool_input: { file_path: "src/a/../b.ts", old_string: "a", new_string: "b" },
    });
    expect(inside.code).toBe(0);
  });

  it("python: log-tool-calls appends one JSON line per call", async () => {
    dirs = await tempProject();
    const file = await install(
      dirs,
      path.join(REPO_ROOT, "examples", "hooks", "log-tool-calls.py"),
    );
    expect((await hookTest(dirs, file, "after_tool", { tool_name: "Read" })).code).toBe(0);
    expect((await hookTest(dirs, file, "after_tool_failure")).code).toBe(0);
    const lines = (await readFile(path.join(dirs.cwd, ".acai", "tool-calls.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([
      expect.objectContaining({ tool: "Read", ok: true }),
      expect.objectContaining({
        tool: "Bash",
        ok: false,
        error: "Command failed with exit code 1",
      }),
    ]);
  });

  it("node: prompt-context adds the git branch as context", async () => {
    dirs = await tempProject();
    const file = await install(
      dirs,
      path.join(REPO_ROOT, "examples", "hooks", "prompt-context.mjs"),
    );
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: dirs?.cwd, stdio: "ignore" });
    git("init", "-q", "-b", "feature-x");
    await writeFile(path.join(dirs.cwd, "a.txt"), "a");
    const { code, report } = await hookTest(dirs, file, "user_prompt");
    expect(code).toBe(0);
    expect(report.decision).toEqual({
      action: "continue",
      context: expect.stringMatching(/^Git: on branch feature-x, \d+ uncommitted files?\.$/),
    });
  });

  it("typescript: bash-timeout patches a long Bash timeout through the typed helper", async () => {
    dirs = await tempProject();
    // As if acai were installed in the project: `acai-agent/hooks` resolves.
    await mkdir(path.join(dirs.cwd, "node_modules"), { recursive: true });
    await symlink(REPO_ROOT, path.join(dirs.cwd, "node_modules", "acai-agent"));
    const file = await install(dirs, path.join(REPO_ROOT, "examples", "hooks", "bash-timeout.ts"));
    const long = await hookTest(dirs, file, "before_tool", {
      tool_input: { command: "make", timeout: 600000 },
    });
    expect(long.code).toBe(0);
    expect(long.report.decision).toMatchObject({
      action: "modify",
      inputPatch: { timeout: 120000 },
    });
    const short = await hookTest(dirs, file, "before_tool", {
      tool_input: { command: "make", timeout: 1000 },
    });
    expect(short.report.decision).toEqual({ action: "continue" });
  });
});

describe("the repo's own .acai/hooks", () => {
  const guard = path.join(REPO_ROOT, ".acai", "hooks", "guard");
  const run = (command: string) =>
    spawnSync(guard, [], {
      input: JSON.stringify({ event: "before_tool", tool_name: "Bash", tool_input: { command } }),
      encoding: "utf8",
    });

  it("guard blocks destructive commands and lets ordinary ones through", () => {
    const blocked = [
      "rm -rf /",
      "rm -rf ~",
      "cd /tmp && rm -fr ~/",
      "sudo rm -r -f $HOME",
      'rm -rf "/"',
      "rm -rf .",
      "git push --force origin main",
      "git push -f",
      "git push origin +main",
      "git -C repo reset --hard HEAD~3",
      "ls; git clean -fdx",
      "mkfs.ext4 /dev/sda1",
      "dd if=/dev/zero of=/dev/sda",
    ];
    const allowed = [
      "rm -rf build",
      "rm -r examples/acai-demo",
      "git push --force-with-lease",
      "git reset --soft HEAD~1",
      "echo 'rm -rf /'",
      "npm test",
      "git clean -n",
    ];
    for (const command of blocked) {
      const result = run(command);
      expect(result.status, command).toBe(2);
      expect(result.stderr).toMatch(/^guard: refusing to run/);
    }
    for (const command of allowed) expect(run(command).status, command).toBe(0);
  });

  it("guard, format-after-write and quality-gate answer describe and behave through `acai hooks test`", async () => {
    dirs = await tempProject();
    const files = await Promise.all(
      ["guard", "format-after-write", "quality-gate"].map((n) =>
        install(dirs as AcaiDirs, path.join(REPO_ROOT, ".acai", "hooks", n)),
      ),
    );
    expect((await acai(dirs, ["hooks", "trust"])).exitCode).toBe(0);
    const list = JSON.parse((await acai(dirs, ["hooks", "list", "--json"])).stdout) as {
      hooks: { name: string; status: string; failure?: string; priority?: number }[];
    };
    expect(list.hooks.map((h) => [h.name, h.status])).toEqual([
      ["guard", "ok"],
      ["format-after-write", "ok"],
      ["quality-gate", "ok"],
    ]);
    expect(list.hooks[0]).toMatchObject({ failure: "closed", priority: 900 });

    const [guardFile, formatFile, gateFile] = files as [string, string, string];
    expect(
      (
        await hookTest(dirs, guardFile, "before_tool", {
          tool_input: { command: "git reset --hard" },
        })
      ).code,
    ).toBe(2);
    // No formatter in the project: format-after-write only observes.
    expect(
      (await hookTest(dirs, formatFile, "after_tool", { tool_name: "Write" })).report.decision,
    ).toEqual({ action: "continue" });

    // quality-gate: a conflict marker in a changed file blocks once, then lets go.
    const git = (...args: string[]) =>
      execFileSync("git", args, { cwd: dirs?.cwd, stdio: "ignore" });
    git("init", "-q");
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init");
    await writeFile(
      path.join(dirs.cwd, "merged.txt"),
      "a\n<<<<<<< ours\nb\n=======\nc\n>>>>>>> theirs\n",
    );
    const gate = await hookTest(dirs, gateFile, "before_stop");
    expect(gate.code).toBe(2);
    expect(gate.report.decision.reason).toMatch(/merged\.txt:2: conflict marker/);
    const reentry = await hookTest(dirs, gateFile, "before_stop", { stop_hook_active: true });
    expect(reentry.code).toBe(0);
    expect(reentry.report.decision.message).toMatch(/problems remain/);
  });
});
