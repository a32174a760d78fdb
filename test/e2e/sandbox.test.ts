/**
 * The OS sandbox through `acai -p` (issue 19, docs/security.md "Sandbox"):
 * with bubblewrap here, a Bash call that writes outside the project, reads
 * `~/.ssh/id_rsa`, writes `ACAI_HOME/hooks/x` or edits a trusted hook file
 * fails and the model is told why, while the same calls inside the project
 * work; hooks and tools see ACAI_SANDBOX; a hook reaches a server on
 * 127.0.0.1 only when its port is allowed; without bwrap on PATH acai runs
 * with a one-line notice, and `sandbox.required` makes that a refusal.
 *
 * Every run sets TMPDIR to a folder of its own, so the sandbox's writable temp
 * folder is that one, not the /tmp holding the test's folders.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { spawnersFolder } from "../../source/process/spawner-folder.js";
import { userFolder } from "../../source/shared/user-folder.js";
import { bwrapWorks } from "../support/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

let dirs: AcaiDirs;
let tmp: string;
let server: FakeOpenAIServer | undefined;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-sandbox-e2e-");
  tmp = path.join(dirs.root, "tmp");
  await mkdir(tmp);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
  await dirs.cleanup();
});

async function userSettings(settings: Record<string, unknown>): Promise<void> {
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify(settings));
}

/** One scripted turn of Bash calls (one per step); the tool result the model got for each. */
async function bashCalls(
  commands: string[],
  extra: { env?: Record<string, string>; args?: string[] } = {},
): Promise<{ results: string[]; stderr: string; exitCode: number | null }> {
  server = await startFakeOpenAI([
    ...commands.map((command) => ({ toolCalls: [{ name: "Bash", input: { command } }] })),
    { text: "done" },
  ]);
  const result = await runAcai({
    args: ["-p", "try the sandbox", ...modelArgs("chat", server), "--yes", ...(extra.args ?? [])],
    dirs,
    baseUrl: server.url,
    env: { TMPDIR: tmp, ...extra.env },
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  const results = commands.map(
    (_, i) => toolResultsSent(server?.requests[i + 1]?.body).at(-1) ?? "",
  );
  return { results, stderr: result.stderr, exitCode: result.exitCode };
}

describe.runIf(bwrapWorks)("the sandbox in acai -p (bubblewrap)", () => {
  it("refuses writes outside the project, reads of ~/.ssh, writes to ACAI_HOME and to trusted hooks, and says why", async () => {
    await mkdir(path.join(dirs.home, ".ssh"));
    await writeFile(path.join(dirs.home, ".ssh", "id_rsa"), "FAKE-PRIVATE-KEY-4711\n");
    await mkdir(path.join(dirs.acaiHome, "hooks"));
    const hookDir = path.join(dirs.cwd, ".acai", "hooks");
    await mkdir(hookDir, { recursive: true });
    const hook = path.join(hookDir, "guard.sh");
    await writeFile(hook, "#!/bin/sh\nexit 0\n");
    await chmod(hook, 0o755);
    const outside = path.join(dirs.root, "outside.txt");
    const { results, exitCode, stderr } = await bashCalls(
      [
        `echo pwned > ${outside}`,
        `cat ${path.join(dirs.home, ".ssh", "id_rsa")}`,
        // The path is built at run time, so only the sandbox (not the command's analysis) can stop it.
        `python3 -c 'import os; open(os.environ["ACAI_HOME"] + "/hooks/x", "w").write("#!/bin/sh")'`,
        `sed -i 's/exit 0/exit 2/' .acai/hooks/guard.sh`,
        "echo inside > inside.txt && cat inside.txt && echo tmp > $TMPDIR/t && cat $TMPDIR/t",
      ],
      { args: ["--trust-project"] },
    );
    expect(exitCode, stderr).toBe(0);
    expect(existsSync(outside)).toBe(false);
    expect(results[0]).toContain("Read-only file system");
    expect(results[0]).toContain(`[acai sandbox]`);
    expect(results[0]).toContain(`writing ${outside}`);
    expect(results[0]).toContain("sandbox.filesystem.allowWrite");
    expect(results[1]).not.toContain("FAKE-PRIVATE-KEY");
    expect(results[1]).toContain(`${path.join(dirs.home, ".ssh")} is unreadable in the sandbox`);
    expect(existsSync(path.join(dirs.acaiHome, "hooks", "x"))).toBe(false);
    expect(results[2]).toContain(`${dirs.acaiHome} is read-only in the sandbox`);
    expect(await readFile(hook, "utf8")).toBe("#!/bin/sh\nexit 0\n");
    expect(results[3]).toMatch(/Read-only file system|read-only/);
    expect(results[3]).toContain("is read-only in the sandbox");
    // The same kind of calls inside the project and the temp folder work.
    expect(results[4]).toContain("inside\ntmp");
    expect(await readFile(path.join(dirs.cwd, "inside.txt"), "utf8")).toBe("inside\n");
    // The spawners' socket folders (in TMPDIR's folder of them, one per spawner) are gone once
    // acai has exited; that folder stays, for the next acai's.
    expect((await readdir(tmp)).filter((name) => name.startsWith("acai-spawner-"))).toEqual([]);
    expect(await readdir(spawnersFolder(tmp))).toEqual([]);
  }, 90_000);

  it("a sandboxed Bash reaches no socket folder of acai's (spawners', network bridges'): others' are hidden, its writes stay inside", async () => {
    // Folders like those a spawner or a network bridge of another acai (or this acai's host
    // helper) keeps here.
    const folders = [
      { parent: spawnersFolder(tmp), name: "acai-spawner-1-decoy1", socket: "s" },
      { parent: userFolder(tmp, "acai-networks"), name: "acai-net-decoy2", socket: "proxy.sock" },
    ];
    for (const { parent, name, socket } of folders) {
      await mkdir(path.join(parent, name), { recursive: true, mode: 0o700 });
      await chmod(parent, 0o700);
      await writeFile(path.join(parent, name, socket), "not a socket\n");
    }
    const { results, exitCode, stderr } = await bashCalls(
      folders.flatMap(({ parent, name }) => [
        `ls -A ${parent}; echo listed`,
        `rm -rf ${path.join(parent, name)}; touch ${parent}/planted; ln -s /etc ${parent}/${name}-linked; echo tried`,
      ]),
    );
    expect(exitCode, stderr).toBe(0);
    for (const [i, { parent, name, socket }] of folders.entries()) {
      expect(results[2 * i]).toContain("listed");
      expect(results[2 * i]).not.toContain("decoy");
      expect(results[2 * i + 1]).toContain("tried");
      // Nothing the sandbox did reached the host's folder.
      expect(await readFile(path.join(parent, name, socket), "utf8")).toBe("not a socket\n");
      expect(existsSync(path.join(parent, "planted"))).toBe(false);
      expect(existsSync(path.join(parent, `${name}-linked`))).toBe(false);
    }
  }, 60_000);

  it("where this user's socket folders in TMPDIR are not theirs alone, acai uses private ones that a sandboxed Bash cannot list or change, and leaves none", async () => {
    // Someone else's folder open to others, and a link, where acai's shared folders would be.
    const uid = process.getuid?.() ?? "user";
    const elsewhere = path.join(dirs.root, "elsewhere");
    await mkdir(elsewhere, { mode: 0o700 });
    await mkdir(spawnersFolder(tmp), { mode: 0o755 });
    await chmod(spawnersFolder(tmp), 0o755);
    await symlink(elsewhere, userFolder(tmp, "acai-networks"));
    await userSettings({ sandbox: { network: { allowedDomains: ["a.example"] } } });
    // Folders like another session's spawner and bridge, put in acai's private folders once
    // they are there; Bash waits for them (`planted`), and says when it looked (`looked`).
    const decoys = [
      { prefix: `acai-spawners-${uid}-`, name: "acai-spawner-1-decoy1", socket: "s" },
      { prefix: `acai-networks-${uid}-`, name: "acai-net-decoy2", socket: "proxy.sock" },
    ];
    const decoyPaths = (names: string[]) =>
      decoys.map((d) => {
        const folder = names.find((n) => n.startsWith(d.prefix));
        return folder === undefined ? undefined : path.join(tmp, folder, d.name);
      });
    const host = { planted: [] as string[], seenBeforeClearing: [] as string[][] };
    const poll = setInterval(() => {
      const names = readdirSync(tmp);
      if (host.planted.length === 0) {
        const paths = decoyPaths(names);
        if (paths.some((p) => p === undefined)) return;
        for (const [i, p] of (paths as string[]).entries()) {
          mkdirSync(p, { mode: 0o700 });
          writeFileSync(path.join(p, decoys[i]?.socket ?? "s"), "not a socket\n");
        }
        host.planted = paths as string[];
        writeFileSync(path.join(tmp, "planted"), "");
      } else if (names.includes("looked") && !names.includes("cleared")) {
        // What the sandbox left in the private folders, then they are given back as acai left them.
        host.seenBeforeClearing = host.planted.map((p) => readdirSync(path.dirname(p)).sort());
        for (const p of host.planted) rmSync(p, { recursive: true });
        writeFileSync(path.join(tmp, "cleared"), "");
      }
    }, 50);
    const waitFor = (file: string) =>
      `for i in $(seq 200); do [ -e $TMPDIR/${file} ] && break; sleep 0.1; done`;
    let outcome: Awaited<ReturnType<typeof bashCalls>>;
    try {
      outcome = await bashCalls([
        `${waitFor("planted")}; ls -A $TMPDIR; for d in $TMPDIR/acai-*; do echo "== $d"; ls -A "$d"; done; echo listed`,
        `for d in $TMPDIR/acai-*-*-*; do rm -rf "$d"/acai-*; touch "$d/planted"; ln -s /etc "$d/linked"; done; echo tried`,
        `touch $TMPDIR/looked; ${waitFor("cleared")}; echo cleared`,
      ]);
    } finally {
      clearInterval(poll);
    }
    const { results, exitCode, stderr } = outcome;
    expect(results[0]).toContain("listed");
    // No socket folder of acai's lies loose in the temp folder; the decoys are out of sight.
    const topLevel = String(results[0]).split("\n== ")[0];
    expect(topLevel).not.toMatch(/^acai-(spawner|net)-/m);
    expect(topLevel).toContain(`acai-spawners-${uid}-`);
    expect(host.planted, "acai made its private folders").toHaveLength(2);
    expect(exitCode, stderr).toBe(0);
    expect(results[0]).not.toContain("decoy");
    expect(results[1]).toContain("tried");
    expect(results[2]).toContain("cleared");
    // Nothing the sandbox did reached the host's private folders: the decoys were still there,
    // nothing planted or linked.
    for (const [i, seen] of host.seenBeforeClearing.entries()) {
      expect(seen).toContain(decoys[i]?.name);
      expect(seen).not.toContain("planted");
      expect(seen).not.toContain("linked");
    }
    expect(host.seenBeforeClearing).toHaveLength(2);
    // acai left no folder of its own behind; the others' are as they were.
    const left = await readdir(tmp);
    expect(left.filter((n) => n.startsWith("acai-"))).toEqual([
      `acai-networks-${uid}`,
      `acai-spawners-${uid}`,
    ]);
    expect(await readdir(spawnersFolder(tmp))).toEqual([]);
    expect(await readdir(elsewhere)).toEqual([]);
  }, 90_000);

  it("a link in the project does not carry a write outside", async () => {
    const outsideDir = path.join(dirs.root, "elsewhere");
    await mkdir(outsideDir);
    await symlink(outsideDir, path.join(dirs.cwd, "link"));
    const { results } = await bashCalls(["echo x > link/escaped.txt"]);
    expect(existsSync(path.join(outsideDir, "escaped.txt"))).toBe(false);
    expect(results[0]).toContain("Read-only file system");
  }, 60_000);

  it("Bash sees ACAI_SANDBOX, cannot read acai's environment through /proc, and has no network", async () => {
    const { results } = await bashCalls([
      'echo "sandbox=$ACAI_SANDBOX policy=$ACAI_SANDBOX_POLICY"; cat /proc/$PPID/environ >/dev/null 2>&1; ls /proc | grep -c "^[0-9]" ; exec 3<>/dev/tcp/127.0.0.1/1 || echo no-connect',
    ]);
    expect(results[0]).toContain("sandbox=1 policy=default");
    // Only the sandbox's own few processes are visible.
    const processes = Number(/\n(\d+)\n/.exec(String(results[0]))?.[1] ?? "999");
    expect(processes).toBeLessThan(10);
    expect(results[0]).toContain("no-connect");
  }, 60_000);

  it("sandbox.enabled false runs Bash unsandboxed, without ACAI_SANDBOX even when acai's parent had it", async () => {
    await userSettings({ sandbox: { enabled: false } });
    const outside = path.join(dirs.root, "outside.txt");
    const { results } = await bashCalls([`echo "s=$ACAI_SANDBOX" > ${outside}; cat ${outside}`], {
      env: { ACAI_SANDBOX: "1" },
    });
    expect(results[0]).toMatch(/^s=$/m);
    expect(existsSync(outside)).toBe(true);
  }, 60_000);

  it("a hook reaches a server on 127.0.0.1 only when the port is allowed, and sees sandbox in session_start", async () => {
    const hits: string[] = [];
    const tcp = net.createServer((socket) => {
      socket.once("data", (data) => {
        hits.push(data.toString().trim());
        socket.end("pong\n");
      });
    });
    await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => tcp.close(() => resolve())));
    const port = (tcp.address() as net.AddressInfo).port;
    const script = (name: string) => `#!/usr/bin/env python3
import json, socket, sys
payload = json.load(sys.stdin)
try:
    s = socket.create_connection(("127.0.0.1", ${port}), timeout=5)
    s.sendall(b"${name}\\n")
    s.recv(10)
    result = "connected"
except OSError as e:
    result = "refused"
with open("${tmp}/${name}.out", "w") as f:
    json.dump({"result": result, "sandbox": payload.get("sandbox")}, f)
`;
    const hooks = path.join(dirs.acaiHome, "hooks");
    const scripts = path.join(dirs.root, "scripts");
    await mkdir(hooks);
    await mkdir(scripts);
    // Executables answer describe with their metadata; the allowed one declares the port.
    const describeWrap = (name: string, network: string[]) => `#!/bin/sh
if [ "$HOOK_ACTION" = describe ]; then
  echo '${JSON.stringify({ name, events: ["session_start"], sandbox: { network } })}'
  exit 0
fi
exec python3 ${path.join(scripts, name)}.py
`;
    for (const [name, network] of [
      ["allowed", [`127.0.0.1:${port}`]],
      ["denied", []],
    ] as const) {
      await writeFile(path.join(scripts, `${name}.py`), script(name));
      await writeFile(path.join(hooks, name), describeWrap(name, [...network]));
      await chmod(path.join(hooks, name), 0o755);
    }
    // The session allows no network: only the hook that declared the port gets it.
    const { exitCode, stderr } = await bashCalls(["true"]);
    expect(exitCode, stderr).toBe(0);
    const allowed = JSON.parse(await readFile(path.join(tmp, "allowed.out"), "utf8"));
    const denied = JSON.parse(await readFile(path.join(tmp, "denied.out"), "utf8"));
    expect(allowed.result).toBe("connected");
    expect(hits).toEqual(["allowed"]);
    expect(denied.result).toBe("refused");
    expect(allowed.sandbox).toMatchObject({
      enabled: true,
      policy: "default",
      containment: "namespace",
      network: "none",
    });
  }, 90_000);

  it("--verbose names the sandbox in force", async () => {
    server = await startFakeOpenAI([{ text: "hi" }]);
    const result = await runAcai({
      args: ["-p", "hi", ...modelArgs("chat", server), "--verbose"],
      dirs,
      baseUrl: server.url,
      env: { TMPDIR: tmp },
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      /acai: sandbox: on \(policy default, bubblewrap \/\S+bwrap, network off/,
    );
  }, 60_000);
});

describe("what acai says about the sandbox", () => {
  it("acai doctor reports the policy in force, or what is missing", async () => {
    const result = await runAcai({ args: ["doctor"], dirs, env: { TMPDIR: tmp } });
    expect(result.exitCode, result.stderr).toBe(0);
    if (bwrapWorks) {
      expect(result.stdout).toMatch(/^sandbox: on \(policy default/m);
      expect(result.stdout).toContain(`writable: ${dirs.cwd}, ${tmp}`);
      expect(result.stdout).toContain(`${path.join(dirs.home, ".ssh")}`);
      expect(result.stdout).toContain(`${path.join(dirs.acaiHome, "trust.json")}`);
    } else {
      expect(result.stdout).toMatch(/^sandbox: (unavailable|off)/m);
    }
    const json = await runAcai({ args: ["doctor", "--json"], dirs, env: { TMPDIR: tmp } });
    expect(JSON.parse(json.stdout).project).toBe(dirs.cwd);
  }, 60_000);

  it("the trust review shows what a project hook asks of the sandbox", async () => {
    await mkdir(path.join(dirs.cwd, ".acai"));
    await writeFile(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                {
                  type: "command",
                  command: "true",
                  sandbox: { network: ["api.github.com"], write: ["./.cache"] },
                },
              ],
            },
          ],
        },
      }),
    );
    const result = await runAcai({ args: ["-p", "hi", "--model", "replay:none.json"], dirs });
    expect(result.exitCode).toBe(4);
    expect(result.stderr).toContain("sandbox needs: network api.github.com; writes ./.cache");
  }, 60_000);
});

describe("where the sandbox cannot run", () => {
  /** A PATH with what the runs need (sh, bash, env, node) but no bwrap. */
  async function pathWithoutBwrap(): Promise<string> {
    const bin = path.join(dirs.root, "bin");
    await mkdir(bin);
    for (const tool of ["sh", "bash", "env", "cat", "echo", "true"]) {
      const found = spawnSync("sh", ["-c", `command -v ${tool}`])
        .stdout.toString()
        .trim();
      if (found.startsWith("/")) await symlink(found, path.join(bin, tool));
    }
    return bin;
  }

  it("without bwrap on PATH, acai runs, says so once, and Bash runs unsandboxed", async () => {
    const bin = await pathWithoutBwrap();
    const outside = path.join(dirs.root, "outside.txt");
    const { results, stderr, exitCode } = await bashCalls(
      [`echo "s=$ACAI_SANDBOX" > ${outside}; cat ${outside}`],
      { env: { PATH: bin } },
    );
    expect(exitCode, stderr).toBe(0);
    const notices = stderr.split("\n").filter((line) => line.includes("sandbox: off"));
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("bubblewrap (bwrap) is not on PATH");
    expect(notices[0]).toContain("apt-get install bubblewrap");
    expect(results[0]).toMatch(/^s=$/m);
    expect(existsSync(outside)).toBe(true);
  }, 60_000);

  it("sandbox.required makes it a refusal that names the setting", async () => {
    const bin = await pathWithoutBwrap();
    await userSettings({ sandbox: { required: true } });
    server = await startFakeOpenAI([{ toolCalls: [{ name: "Bash", input: { command: "true" } }] }]);
    const result = await runAcai({
      args: ["-p", "hi", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      env: { PATH: bin, TMPDIR: tmp },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("sandbox.required");
    expect(result.stderr).toContain(path.join(dirs.acaiHome, "settings.json"));
    expect(result.stderr).toContain("bubblewrap (bwrap) is not on PATH");
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(server.requests).toHaveLength(0);
  }, 60_000);
});
