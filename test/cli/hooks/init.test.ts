import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, tempProject, writeExecutable } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  dirs = undefined;
});

const LANGS = [
  { lang: "bash", ext: ".sh" },
  { lang: "python", ext: ".py" },
  { lang: "node", ext: ".mjs" },
  { lang: "ts", ext: ".mts" },
] as const;

describe("acai hooks init", () => {
  it("--mode persistent writes a skeleton in every language that serves `acai hooks test`", async () => {
    dirs = await tempProject();
    const d = dirs;
    for (const { lang, ext } of LANGS) {
      const init = await acai(d, [
        "hooks",
        "init",
        `p-${lang}`,
        "--lang",
        lang,
        "--mode",
        "persistent",
      ]);
      expect(init.stderr).toBe("");
      expect(init.stdout).toContain(`Wrote .acai/hooks/p-${lang}${ext} (${lang}, persistent`);
      const result = await acai(d, [
        "hooks",
        "test",
        `p-${lang}`,
        "--event",
        "before_tool",
        "--json",
      ]);
      expect(result.exitCode, `${lang}: ${result.stdout}${result.stderr}`).toBe(0);
      const report = JSON.parse(result.stdout) as {
        decision: { action: string; log?: string };
        stdin: string;
      };
      expect(report.decision.action).toBe("continue");
      expect(report.decision.log).toMatch(new RegExp(`^p-${lang} served request 1 \\(pid \\d+\\)`));
      // The request line: the event JSON with an id.
      expect(JSON.parse(report.stdin)).toMatchObject({ id: 1, event: "before_tool" });
    }
  }, 60_000);

  it("writes an executable skeleton in every language that passes `acai hooks test`", async () => {
    dirs = await tempProject();
    const d = dirs;
    await Promise.all(
      LANGS.map(async ({ lang, ext }) => {
        const event =
          lang === "python" ? "UserPromptSubmit" : lang === "node" ? "before_stop" : "before_tool";
        const init = await acai(d, [
          "hooks",
          "init",
          `my-${lang}`,
          "--lang",
          lang,
          "--event",
          event,
        ]);
        expect(init.stderr).toBe("");
        expect(init.exitCode).toBe(0);
        const file = path.join(d.cwd, ".acai", "hooks", `my-${lang}${ext}`);
        expect(init.stdout).toContain(`Wrote .acai/hooks/my-${lang}${ext}`);
        expect((await stat(file)).mode & 0o111).toBe(0o111);
        expect(await readFile(file, "utf8")).toContain("HOOK_ACTION");
      }),
    );
    for (const { lang, ext } of LANGS) {
      const event =
        lang === "python" ? "user_prompt" : lang === "node" ? "before_stop" : "before_tool";
      // By path and by name: both resolve the (untrusted) hook.
      for (const target of [`.acai/hooks/my-${lang}${ext}`, `my-${lang}`]) {
        const result = await acai(d, ["hooks", "test", target, "--event", event, "--json"]);
        expect(result.exitCode, `${lang} ${target}: ${result.stdout}${result.stderr}`).toBe(0);
        const report = JSON.parse(result.stdout) as {
          untrusted: boolean;
          exit_code: number;
          decision: { action: string; log?: string };
          stdin: string;
        };
        expect(report.untrusted).toBe(true);
        expect(report.exit_code).toBe(0);
        expect(report.decision).toEqual({ action: "continue", log: `my-${lang} saw ${event}` });
        expect(JSON.parse(report.stdin).event).toBe(event);
      }
    }
    const list = await acai(d, ["hooks", "list", "--json"]);
    const listed = JSON.parse(list.stdout) as { hooks: { name: string; status: string }[] };
    // `hooks test` described them (cached), so list now knows them without running anything.
    expect(listed.hooks.map((h) => [h.name, h.status]).sort()).toEqual(
      LANGS.map(({ lang }) => [`my-${lang}`, "ok"]).sort(),
    );
  }, 60_000);

  it("--lang ts works when the node on PATH cannot run TypeScript: acai runs it with its own Node", async () => {
    const project = await tempProject();
    dirs = project;
    const bin = path.join(project.root, "fake-bin");
    // A `node` first on PATH that fails like Node 20 on a .mts file, whatever it is asked.
    await writeExecutable(
      path.join(bin, "node"),
      `#!/bin/sh
cat >&2 <<'EOF'
node:internal/modules/esm/get_format:189
  throw new ERR_UNKNOWN_FILE_EXTENSION(ext, filepath);
        ^

TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".mts" for the hook
    at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:189:9) {
  code: 'ERR_UNKNOWN_FILE_EXTENSION'
}

Node.js v20.11.1
EOF
exit 1
`,
    );
    const env = { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };

    const init = await acai(project, ["hooks", "init", "typed", "--lang", "ts"], { env });
    expect(init).toMatchObject({ exitCode: 0, stderr: "" });
    const file = path.join(project.cwd, ".acai", "hooks", "typed.mts");
    expect((await readFile(file, "utf8")).split("\n")[0]).toBe("#!/usr/bin/env node");

    // Described and run with acai's Node, by path and by name.
    for (const target of [".acai/hooks/typed.mts", "typed"]) {
      const tested = await acai(project, ["hooks", "test", target, "--json"], { env });
      expect(tested.exitCode, tested.stdout + tested.stderr).toBe(0);
      const report = JSON.parse(tested.stdout) as { decision: unknown; exit_code: number };
      expect(report.exit_code).toBe(0);
      expect(report.decision).toEqual({ action: "continue", log: "typed saw before_tool" });
    }

    // A JavaScript hook still runs with PATH's node (plain JS runs on any), and when that
    // node fails, hooks test quotes the error line itself, not Node's stack trace.
    await acai(project, ["hooks", "init", "plain", "--lang", "node"], { env });
    const failed = await acai(project, ["hooks", "test", ".acai/hooks/plain.mjs"], { env });
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toContain(
      'TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".mts"',
    );
    expect(failed.stderr).not.toContain("node:internal/");
    const byName = await acai(project, ["hooks", "test", "plain"], { env });
    expect(byName.exitCode).toBe(1);
    expect(byName.stderr).toContain("plain.mjs) is broken and would not run");
    expect(byName.stderr).not.toContain("no hook named");
  });

  it("refuses to overwrite, rejects bad names and unknown events", async () => {
    dirs = await tempProject();
    expect((await acai(dirs, ["hooks", "init", "dup"])).exitCode).toBe(0);
    const again = await acai(dirs, ["hooks", "init", "dup"]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toContain(".acai/hooks/dup.sh already exists");
    expect((await acai(dirs, ["hooks", "init", "dup", "--force"])).exitCode).toBe(0);
    const badName = await acai(dirs, ["hooks", "init", "../escape"]);
    expect(badName.exitCode).toBe(2);
    expect(badName.stderr).toContain("use letters, digits");
    const badEvent = await acai(dirs, ["hooks", "init", "x", "--event", "PreToolUsage"]);
    expect(badEvent.exitCode).toBe(2);
    expect(badEvent.stderr).toContain("unknown event");
  });
});
