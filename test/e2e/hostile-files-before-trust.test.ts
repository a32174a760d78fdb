/**
 * A hostile repository's files, read before the user trusted anything: links
 * to devices and FIFOs, huge and deeply nested files. acai must not block,
 * not read them whole, not overflow its stack: a clear error naming the file
 * (exit 2 for settings, a broken hook with the reason for HOOK.md).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-hostile-files-");
  await mkdir(path.join(dirs.cwd, ".acai"), { recursive: true });
  server = await startFakeOpenAI(() => ({ text: "answered" }));
});
afterEach(async () => {
  await server.close();
  await dirs.cleanup();
});

/** A run that should end quickly: killed (and reported as timed out) after 10 s. */
const acai = (...args: string[]) => runAcai({ args, dirs, baseUrl: server.url, timeoutMs: 10_000 });
const prompt = (...args: string[]) => acai("-p", "hi", ...modelArgs("chat", server), ...args);

const settingsFile = () => path.join(dirs.cwd, ".acai", "settings.json");

/** A named pipe nobody writes to: opening it for reading the ordinary way blocks forever. */
function fifo(name: string): string {
  const file = path.join(dirs.root, name);
  execFileSync("mkfifo", [file]);
  return file;
}

async function hookMdFolder(name: string): Promise<string> {
  const dir = path.join(dirs.cwd, ".agents", "hooks", name);
  await mkdir(path.join(dir, "scripts"), { recursive: true });
  await writeFile(path.join(dir, "scripts", "run.sh"), "#!/bin/sh\nexit 0\n");
  return dir;
}

function expectSettingsError(
  result: Awaited<ReturnType<typeof acai>>,
  reason: string | RegExp,
): void {
  expect(result.timedOut).toBe(false);
  expect(result.exitCode).toBe(2);
  expect(result.stderr).toContain(settingsFile());
  expect(result.stderr).toMatch(reason);
  expect(result.stderr).not.toContain("Maximum call stack");
  expect(server.requests).toHaveLength(0);
}

describe("project settings files before trust", () => {
  it("settings.json linked to a FIFO (as to /dev/tty): no blocking, exit 2 naming the file", async () => {
    await symlink(fifo("tty-like"), settingsFile());
    const result = await prompt();
    expectSettingsError(result, "it is a named pipe, not a regular file");
    expect(result.durationMs).toBeLessThan(5000);
    const list = await acai("hooks", "list");
    expect(list.timedOut).toBe(false);
    expect(list.exitCode).toBe(2);
    expect(list.stderr).toContain(`Cannot read settings file ${settingsFile()}`);
  });

  it("settings.json linked to /dev/zero: refused at once, exit 2 naming the file", async () => {
    await symlink("/dev/zero", settingsFile());
    const result = await prompt();
    expectSettingsError(result, "it is a character device, not a regular file");
    expect(result.durationMs).toBeLessThan(5000);
  });

  it("a settings file larger than 1 MiB is refused, naming the limit", async () => {
    await writeFile(settingsFile(), `{"model": "${"x".repeat(1100 * 1024)}"}`);
    expectSettingsError(await prompt(), "larger than the 1 MiB limit");
  });

  it("100,000 `[` deep: exit 2 naming the file, no stack overflow (also with --no-project-hooks)", async () => {
    await writeFile(settingsFile(), "[".repeat(100_000));
    expectSettingsError(await prompt(), "nests objects or arrays more than 64 levels deep");
    const off = await prompt("--no-project-hooks");
    expect(off.timedOut).toBe(false);
    expect(off.stderr).not.toContain("Maximum call stack");
    // Either the project's files are not read at all, or the file is refused: never a crash.
    expect([0, 2]).toContain(off.exitCode);
  });

  it("a hooks value 20,000 levels deep: exit 2 naming the file, in -p and in hooks list/trust", async () => {
    const deep = `${"[".repeat(20_000)}${"]".repeat(20_000)}`;
    await writeFile(settingsFile(), `{"hooks": {"PreToolUse": ${deep}}}`);
    expectSettingsError(await prompt(), "more than 64 levels deep");
    for (const args of [
      ["hooks", "list"],
      ["hooks", "trust"],
    ]) {
      const result = await acai(...args);
      expect(result.exitCode).toBe(2);
      expect(result.stderr).toContain(settingsFile());
      expect(result.stderr).not.toContain("Maximum call stack");
    }
  });
});

describe("HOOK.md files before trust", () => {
  it("a HOOK.md linked to /dev/zero or a FIFO is a broken hook saying why, listed at once", async () => {
    await symlink("/dev/zero", path.join(await hookMdFolder("zero"), "HOOK.md"));
    await symlink(fifo("hook-fifo"), path.join(await hookMdFolder("pipe"), "HOOK.md"));
    const list = await acai("hooks", "list");
    expect(list.timedOut).toBe(false);
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain(
      "HOOK.md cannot be read: it is a character device, not a regular file",
    );
    expect(list.stdout).toContain("HOOK.md cannot be read: it is a named pipe, not a regular file");
    expect(list.durationMs).toBeLessThan(5000);
  });

  it("a HOOK.md over 1 MiB is a broken hook naming the limit", async () => {
    const dir = await hookMdFolder("huge");
    await writeFile(path.join(dir, "HOOK.md"), `---\nname: huge\n---\n${"x".repeat(1100 * 1024)}`);
    const list = await acai("hooks", "list");
    expect(list.exitCode).toBe(0);
    expect(list.stdout).toContain("HOOK.md cannot be read: it is larger than the 1 MiB limit");
  });

  it("deep, aliased or oversized YAML frontmatter is a broken hook with the reason, never a crash", async () => {
    const frontmatters: Record<string, string> = {
      flow: `name: flow\ntrigger: before_tool\nmatcher: ${"[".repeat(10_000)}`,
      seq: `${"- ".repeat(5_000)}x`,
      keys: "? [a, b]\n: costly to turn into text when nested",
      block: Array.from({ length: 150 }, (_, i) => `${" ".repeat(i)}k:`).join("\n"),
      aliases: [
        "a: &a [x, x, x, x, x, x, x, x, x]",
        "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
        "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
        "d: [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
      ].join("\n"),
      big: `name: big\ndescription: ${"y".repeat(20_000)}`,
    };
    for (const [name, yaml] of Object.entries(frontmatters)) {
      await writeFile(path.join(await hookMdFolder(name), "HOOK.md"), `---\n${yaml}\n---\n`);
    }
    const list = await acai("hooks", "list");
    expect(list.timedOut).toBe(false);
    expect(list.exitCode).toBe(0);
    expect(list.stderr).toBe("");
    expect(list.stdout).toContain("Broken — not run (6)");
    expect(list.stdout.match(/nests more than 64 levels deep/g)).toHaveLength(3);
    expect(list.stdout).toContain("a key is a list or a map; use plain keys");
    expect(list.stdout).toContain("Excessive alias count");
    expect(list.stdout).toContain("invalid YAML frontmatter: larger than 16 KiB");
    expect(list.stdout).not.toContain("Maximum call stack");
    const refused = await prompt();
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).not.toContain("Maximum call stack");
  });
});

describe("describe output nested too deep", () => {
  it("an executable hook whose describe prints 20,000-deep JSON is broken with the reason", async () => {
    const hook = path.join(dirs.cwd, ".acai", "hooks", "deep");
    await mkdir(path.dirname(hook), { recursive: true });
    await writeFile(
      hook,
      `#!/bin/sh\nawk 'BEGIN { for (i = 0; i < 20000; i++) printf "["; for (i = 0; i < 20000; i++) printf "]" }'\n`,
    );
    await chmod(hook, 0o755);
    const result = await acai("hooks", "test", "deep", "--event", "before_tool");
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain("HOOK_ACTION=describe printed JSON nested more than 64 levels");
    expect(result.stderr).not.toContain("Maximum call stack");
  });

  it("a dynamic tool whose describe prints 20,000-deep JSON is skipped with a warning", async () => {
    const tool = path.join(dirs.cwd, ".acai", "tools", "deep");
    await mkdir(path.dirname(tool), { recursive: true });
    await writeFile(
      tool,
      `#!/bin/sh\nawk 'BEGIN { printf "{\\"name\\":\\"deep\\",\\"description\\":\\"d\\",\\"input_schema\\":"; for (i = 0; i < 20000; i++) printf "{\\"a\\":"; printf "1"; for (i = 0; i < 20000; i++) printf "}"; printf "}" }'\n`,
    );
    await chmod(tool, 0o755);
    const result = await prompt("--trust-project-hooks");
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toContain("describe printed JSON nested more than 64 levels deep");
    expect(result.stderr).not.toContain("Maximum call stack");
  });
});

describe("acai hooks test NAME runs only the hook it names", () => {
  it("a name that matches no file describes nothing and lists the known names", async () => {
    const markers: string[] = [];
    for (const name of ["alpha", "beta.sh"]) {
      const marker = path.join(dirs.root, `described-${name}`);
      markers.push(marker);
      const hook = path.join(dirs.cwd, ".acai", "hooks", name);
      await mkdir(path.dirname(hook), { recursive: true });
      await writeFile(
        hook,
        `#!/bin/sh\ntouch '${marker}'\necho '{"name":"nope","events":["before_tool"]}'\n`,
      );
      await chmod(hook, 0o755);
    }
    await writeFile(
      settingsFile(),
      JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", name: "gate", command: "true" }] }] },
      }),
    );
    const result = await acai("hooks", "test", "nope", "--event", "before_tool");
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no hook named "nope"');
    expect(result.stderr).toContain("Known hooks: alpha, beta.sh, gate.");
    for (const marker of markers) expect(existsSync(marker)).toBe(false);

    // Named by its file (or its file's stem), one hook is described: that one only.
    const byStem = await acai("hooks", "test", "beta", "--event", "before_tool");
    expect(byStem.exitCode).toBe(0);
    expect(existsSync(markers[1] as string)).toBe(true);
    expect(existsSync(markers[0] as string)).toBe(false);
  });
});
