import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, acai, tempProject, writeExecutable } from "./helpers.js";

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
  });

  it("--lang ts warns when the node on PATH cannot run TypeScript; hooks test then quotes the real error", async () => {
    const project = await tempProject();
    dirs = project;
    const bin = path.join(project.root, "fake-bin");
    // A `node` that reports a version and, asked to run a file, fails like Node 20 on a .ts file.
    const fakeNode = (version: string) =>
      writeExecutable(
        path.join(bin, "node"),
        `#!/bin/sh
if [ "$1" = "-p" ]; then echo "${version} /opt/old/bin/node"; exit 0; fi
cat >&2 <<'EOF'
node:internal/modules/esm/get_format:189
  throw new ERR_UNKNOWN_FILE_EXTENSION(ext, filepath);
        ^

TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".mts" for the hook
    at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:189:9) {
  code: 'ERR_UNKNOWN_FILE_EXTENSION'
}

Node.js ${version}
EOF
exit 1
`,
      );
    const env = { PATH: `${bin}:${process.env.PATH ?? "/usr/bin:/bin"}` };

    await fakeNode("v20.11.1");
    const old = await acai(project, ["hooks", "init", "typed", "--lang", "ts"], { env });
    expect(old.exitCode).toBe(0);
    expect(old.stderr).toContain(
      "acai: warning: the `node` on your PATH is v20.11.1 (/opt/old/bin/node), which cannot run TypeScript: .acai/hooks/typed.mts",
    );
    expect(old.stderr).toContain("needs Node >= 22.18 (or >= 23.6)");
    expect(old.stderr).toContain("--lang node");
    expect(old.stderr).not.toContain("--experimental-strip-types");

    const tested = await acai(
      project,
      ["hooks", "test", ".acai/hooks/typed.mts", "--event", "before_tool"],
      { env },
    );
    expect(tested.exitCode).toBe(1);
    // The reason names the error line itself, not the first line of Node's stack trace.
    expect(tested.stderr).toContain(
      'TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".mts"',
    );
    expect(tested.stderr).not.toContain("node:internal/");
    // By name too: the file is found and its failure shown, not "no hook named". (A failed
    // describe is cached, so this reason is the one the describe step recorded.)
    const byName = await acai(project, ["hooks", "test", "typed", "--event", "before_tool"], {
      env,
    });
    expect(byName.exitCode).toBe(1);
    expect(byName.stderr).toContain("typed.mts) is broken and would not run");
    expect(byName.stderr).not.toContain("no hook named");

    await fakeNode("v22.12.0");
    const flagged = await acai(project, ["hooks", "init", "t2", "--lang", "ts"], { env });
    expect(flagged.stderr).toContain("#!/usr/bin/env -S node --experimental-strip-types");

    await fakeNode("v22.18.0");
    const fine = await acai(project, ["hooks", "init", "t3", "--lang", "ts"], { env });
    expect(fine).toMatchObject({ exitCode: 0, stderr: "" });

    const none = await acai(project, ["hooks", "init", "t4", "--lang", "ts"], {
      env: { PATH: path.join(project.root, "empty") },
    });
    expect(none.exitCode).toBe(0);
    expect(none.stderr).toContain("no working `node` found on your PATH");
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
