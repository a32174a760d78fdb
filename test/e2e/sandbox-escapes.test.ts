/**
 * Ways out of the sandbox a model's Bash call might try (issue 19, "How we
 * will check"), each through `acai -p` with bubblewrap: acai's secrets in any
 * visible /proc/PID/environ, another root through /proc/PID/root, the trust
 * records, the host's /dev/shm, and unix sockets of processes outside that the
 * session's environment names ($XDG_RUNTIME_DIR outside /run/user, the session
 * bus address, $TMUX) — a unix socket connects even on a read-only mount, and a
 * multiplexer or bus behind one runs commands outside.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bwrapWorks } from "../support/bwrap.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE, toolResultsSent } from "./helpers.js";

const MCP_SERVER = fileURLToPath(new URL("../support/mcp-test-server.mjs", import.meta.url));
const SECRET = "sk-probe-secret-5d41402abc4b2a76";

let dirs: AcaiDirs;
let tmp: string;
let server: FakeOpenAIServer | undefined;
const closers: (() => Promise<void>)[] = [];

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-sandbox-escapes-");
  tmp = path.join(dirs.root, "tmp");
  await mkdir(tmp);
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  for (const close of closers.splice(0)) await close();
  await dirs.cleanup();
});

async function bashCalls(commands: string[], env: Record<string, string> = {}): Promise<string[]> {
  server = await startFakeOpenAI([
    ...commands.map((command) => ({ toolCalls: [{ name: "Bash", input: { command } }] })),
    { text: "done" },
  ]);
  const result = await runAcai({
    args: ["-p", "try to get out", ...modelArgs("chat", server), "--yes"],
    dirs,
    baseUrl: server.url,
    env: { TMPDIR: tmp, ...env },
    timeoutMs: 60_000,
  });
  expect(result.stderr).not.toMatch(STACK_TRACE);
  expect(result.exitCode).toBe(0);
  return commands.map((_, i) => String(toolResultsSent(server?.requests[i + 1]?.body).at(-1)));
}

/** A unix socket server outside the sandbox; counts the connections it got. */
async function socketServer(file: string): Promise<{ connections: () => number }> {
  let connections = 0;
  const srv = net.createServer((socket) => {
    connections++;
    socket.end("OUTSIDE-ANSWERED\n");
  });
  await new Promise<void>((resolve) => srv.listen(file, resolve));
  closers.push(() => new Promise<void>((resolve) => srv.close(() => resolve())));
  return { connections: () => connections };
}

const connect = (file: string) =>
  `python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("${file}"); print(s.recv(64).decode())' 2>&1 | tail -1`;

describe.runIf(bwrapWorks)("escapes from the sandbox (bubblewrap)", () => {
  it("a hook sees no process holding acai's secrets; /proc/PID/root leads nowhere new; trust records are empty", async () => {
    await writeFile(
      path.join(dirs.acaiHome, "trust.json"),
      JSON.stringify({ version: 1, projects: {}, note: "TRUST-TOKEN-77" }),
    );
    const out = path.join(dirs.cwd, "hook-saw");
    // The hook's own environment is scrubbed; any visible process still holding the key is a parent's.
    const probe = `for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < "$f" 2>/dev/null | grep -q "sk-$(echo probe)${SECRET.slice(8)}" && echo "leak $f"; done; echo procs=$(ls -d /proc/[0-9]* | wc -l); ls /proc/[0-9]*/root/proc/ 2>/dev/null | grep -c '^[0-9]'`;
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [{ hooks: [{ type: "command", command: `{ ${probe}; } > '${out}'` }] }],
        },
      }),
    );
    const results = await bashCalls(
      [
        `for r in /proc/[0-9]*/root /proc/1/cwd; do cat "$r$ACAI_HOME/trust.json" 2>/dev/null; done; cat "$ACAI_HOME/trust.json"; echo end`,
      ],
      { OPENAI_API_KEY: SECRET },
    );
    const saw = await readFile(out, "utf8");
    expect(saw).toMatch(/procs=[1-9]/);
    expect(saw).not.toContain("leak");
    // Every /proc/PID/root is the sandbox's own root: its /proc shows only the sandbox's few processes.
    expect(Number(/\n(\d+)\n?$/.exec(saw)?.[1] ?? "999")).toBeLessThan(50);
    expect(results[0]).not.toContain("TRUST-TOKEN-77");
    expect(results[0]).toContain("end");
  }, 90_000);

  it("writes to /dev/shm stay inside the sandbox", async () => {
    const name = `acai-probe-${path.basename(dirs.root)}`;
    const results = await bashCalls([`echo x > /dev/shm/${name} && echo wrote`]);
    expect(results[0]).toContain("wrote");
    const leaked = (await readdir("/dev/shm").catch((): string[] => [])).includes(name);
    if (leaked) await rm(path.join("/dev/shm", name), { force: true });
    expect(leaked).toBe(false);
  }, 60_000);

  it("sockets named by $XDG_RUNTIME_DIR, the session bus address and $TMUX cannot be reached", async () => {
    const runtime = path.join(dirs.root, "runtime");
    const other = path.join(dirs.root, "sockets");
    await mkdir(runtime, { mode: 0o700 });
    await mkdir(other);
    const bus = await socketServer(path.join(runtime, "bus"));
    const dbus = await socketServer(path.join(other, "dbus"));
    const tmux = await socketServer(path.join(other, "tmux"));
    const results = await bashCalls(
      [
        connect(path.join(runtime, "bus")),
        connect(path.join(other, "dbus")),
        connect(path.join(other, "tmux")),
      ],
      {
        XDG_RUNTIME_DIR: runtime,
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${path.join(other, "dbus")},guid=0`,
        TMUX: `${path.join(other, "tmux")},4242,0`,
      },
    );
    for (const result of results) expect(result).not.toContain("OUTSIDE-ANSWERED");
    expect([bus.connections(), dbus.connections(), tmux.connections()]).toEqual([0, 0, 0]);
    expect(existsSync(path.join(runtime, "bus"))).toBe(true);
  }, 60_000);
});

/** PIDs whose command line holds `marker` (their arguments, not their environment). */
async function byMarker(marker: string): Promise<number[]> {
  const pids: number[] = [];
  for (const entry of await readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const cmdline = await readFile(`/proc/${entry}/cmdline`, "utf8").catch(() => "");
    if (cmdline.includes(marker)) pids.push(Number(entry));
  }
  return pids;
}

describe.runIf(bwrapWorks)("through acai -p: containment and a project's settings", () => {
  it("a hook's `setsid env -i` escapee is gone when acai exits (counted by a marker in its arguments)", async () => {
    const marker = `acai-escapee-${path.basename(dirs.root)}`;
    const started = path.join(dirs.cwd, "escapee-started");
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            {
              hooks: [
                {
                  type: "command",
                  command: `setsid env -i /bin/bash -c 'touch ${started}; exec -a ${marker} sleep 1000' </dev/null >/dev/null 2>&1 & sleep 0.5`,
                },
              ],
            },
          ],
        },
      }),
    );
    await bashCalls(["true"]);
    const left = await byMarker(marker);
    for (const pid of left) process.kill(pid, "SIGKILL");
    expect(existsSync(started)).toBe(true);
    expect(left).toEqual([]);
  }, 60_000);

  it("a project's .acai/settings.json cannot widen the sandbox (allowWrite, enabled: false, autoAllowBashIfSandboxed)", async () => {
    const outside = path.join(dirs.root, "outside");
    await mkdir(outside);
    await mkdir(path.join(dirs.cwd, ".acai"), { recursive: true });
    await writeFile(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({
        sandbox: {
          enabled: false,
          autoAllowBashIfSandboxed: true,
          filesystem: { allowWrite: [outside] },
          network: { allowedDomains: ["*"] },
        },
      }),
    );
    server = await startFakeOpenAI([
      {
        toolCalls: [
          { name: "Bash", input: { command: `echo x > ${outside}/w; echo "s=$ACAI_SANDBOX"` } },
        ],
      },
      { text: "done" },
    ]);
    const result = await runAcai({
      args: ["-p", "widen", ...modelArgs("chat", server), "--yes", "--trust-project"],
      dirs,
      baseUrl: server.url,
      env: { TMPDIR: tmp },
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(existsSync(path.join(outside, "w"))).toBe(false);
    expect(String(toolResultsSent(server.requests[1]?.body).at(-1))).toContain("s=1");
    for (const ignored of [
      "enabled: false",
      "filesystem.allowWrite",
      "autoAllowBashIfSandboxed",
      "network.allowedDomains *",
    ])
      expect(result.stderr).toContain(`sandbox.${ignored}`);
  }, 60_000);
});

describe.runIf(bwrapWorks)("MCP stdio servers (bubblewrap)", () => {
  it("a stdio server runs in the sandbox: ACAI_SANDBOX set, a write outside the project refused", async () => {
    const saw = path.join(dirs.cwd, "mcp-saw");
    const outside = path.join(dirs.root, "mcp-outside");
    const script = `echo "s=$ACAI_SANDBOX" > '${saw}'; (echo x > '${outside}') 2>/dev/null || echo refused >> '${saw}'; exec '${process.execPath}' '${MCP_SERVER}'`;
    await writeFile(
      path.join(dirs.acaiHome, "settings.json"),
      JSON.stringify({ mcpServers: { probe: { command: "/bin/sh", args: ["-c", script] } } }),
    );
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "mcp__probe__echo", input: { text: "hi" } }] },
      { text: "done" },
    ]);
    const result = await runAcai({
      args: ["-p", "go", "--allowedTools", "mcp__probe__*", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
      env: { TMPDIR: tmp },
      timeoutMs: 60_000,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(String(toolResultsSent(server.requests[1]?.body).at(-1))).toContain("echo: hi");
    expect(await readFile(saw, "utf8")).toBe("s=1\nrefused\n");
    expect(existsSync(outside)).toBe(false);
  }, 60_000);
});
