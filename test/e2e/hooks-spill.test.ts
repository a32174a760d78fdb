/**
 * Hook text over its cap through `acai -p` (issue 22 item 7, as Codex does):
 * a PreToolUse block reason of 6,000 characters — from a command hook, a
 * persistent hook, a plugin and an http hook — reaches the model as a
 * preview and the path of a 0600 file of the session's folder under
 * ACAI_HOME holding all of it. The file outlives the run: a session
 * continued with `-c` sends the model the same path, the file is still
 * there, and the continued session's own spill is numbered after it.
 */
import { chmod, mkdir, readFile, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs, toolResultsSent } from "./helpers.js";

const REASON = `${"why ".repeat(1000)}${"tail".repeat(500)}`; // 6,000 characters

let dirs: AcaiDirs | undefined;
let model: FakeOpenAIServer | undefined;
let hookServer: http.Server | undefined;
afterEach(async () => {
  await model?.close();
  if (hookServer !== undefined) {
    const s = hookServer;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
  await dirs?.cleanup();
  dirs = undefined;
  model = undefined;
  hookServer = undefined;
});

const bash = (command: string) => ({ toolCalls: [{ name: "Bash", input: { command } }] });

function run(d: AcaiDirs, s: FakeOpenAIServer, extra: string[] = []) {
  return runAcai({
    dirs: d,
    args: ["-p", "go", "--yes", ...extra, ...modelArgs("chat", s)],
    baseUrl: s.url,
    timeoutMs: 60_000,
  });
}

/** The spill file a tool result names, and the result itself. */
function spilledPath(result: string): string {
  return /are in (\S+)\]/.exec(result)?.[1] ?? "";
}

const settingsHooks = (d: AcaiDirs, hook: object) =>
  writeFile(
    path.join(d.acaiHome, "settings.json"),
    JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook] }] } }),
  );

/** A user-level persistent hook (bash) blocking every call with the reason in reason.txt. */
async function persistentGuard(d: AcaiDirs): Promise<void> {
  const meta = JSON.stringify({ name: "guard", events: ["before_tool"], mode: "persistent" });
  const file = path.join(d.acaiHome, "hooks", "guard");
  await mkdir(path.dirname(file), { recursive: true });
  const reasonFile = path.join(d.root, "reason.txt");
  await writeFile(
    file,
    [
      "#!/usr/bin/env bash",
      `if [ "$HOOK_ACTION" = describe ]; then echo '${meta}'; exit 0; fi`,
      "while IFS= read -r line; do",
      '  id=$(jq -r .id <<<"$line")',
      `  jq -cn --argjson id "$id" --rawfile r '${reasonFile}' '{id: $id, action: "block", reason: $r}'`,
      "done",
      "",
    ].join("\n"),
  );
  await chmod(file, 0o755);
}

/** A user-level plugin blocking every Bash call with the reason. */
async function pluginGuard(d: AcaiDirs): Promise<void> {
  const file = path.join(d.acaiHome, "plugins", "guard.mjs");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(
    file,
    `export function register(api) {
  api.on("before_tool", () => ({ action: "block", reason: ${JSON.stringify(REASON)} }), { name: "guard" });
}
`,
  );
}

/** An http hook's server on 127.0.0.1 answering every POST with a block and the reason. */
async function httpGuard(d: AcaiDirs): Promise<void> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ decision: "block", reason: REASON }));
    });
  });
  hookServer = server;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await settingsHooks(d, { type: "http", url: `http://127.0.0.1:${port}/hook`, name: "guard" });
}

const KINDS: [string, (d: AcaiDirs) => Promise<void>][] = [
  [
    "command",
    (d) =>
      settingsHooks(d, {
        type: "command",
        name: "guard",
        command: `cat >/dev/null; cat '${path.join(d.root, "reason.txt")}' >&2; exit 2`,
      }),
  ],
  ["persistent", persistentGuard],
  ["plugin", pluginGuard],
  ["http", httpGuard],
];

describe("a hook's block reason over its cap", () => {
  it.each(KINDS)(
    "from a %s hook is spilled: the model gets a preview and the path of a file that outlives the run",
    async (_kind, install) => {
      const d = await makeAcaiDirs("acai-hook-spill-");
      dirs = d;
      await writeFile(path.join(d.root, "reason.txt"), REASON);
      await install(d);
      const s = await startFakeOpenAI([bash("echo hi"), { text: "done" }]);
      model = s;
      const result = await run(d, s);
      expect(result.exitCode, result.stderr).toBe(0);
      const [sent] = toolResultsSent(s.requests[1]?.body);
      const file = spilledPath(sent ?? "");
      expect(sent, sent).toContain("why why why");
      expect(sent).toContain("over 4000 characters: all 6000 are in ");
      expect((sent ?? "").length).toBeLessThan(4500); // the preview and path, and what acai says around them
      expect(path.dirname(file).startsWith(path.join(d.acaiHome, "sessions"))).toBe(true);
      expect(file.endsWith("-reason.txt")).toBe(true);
      // After the run: all of it, readable by its owner only.
      expect(await readFile(file, "utf8")).toBe(REASON);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
    },
  );

  it("a session continued with -c sends the model the same path, which still holds the text", async () => {
    const d = await makeAcaiDirs("acai-hook-spill-resume-");
    dirs = d;
    await writeFile(path.join(d.root, "reason.txt"), REASON);
    await KINDS[0]?.[1](d);
    const s = await startFakeOpenAI([
      bash("echo hi"),
      { text: "blocked" },
      bash("echo again"),
      { text: "blocked again" },
    ]);
    model = s;
    const first = await run(d, s);
    expect(first.exitCode, first.stderr).toBe(0);
    const firstPath = spilledPath(toolResultsSent(s.requests[1]?.body)[0] ?? "");
    const second = await run(d, s, ["-c"]);
    expect(second.exitCode, second.stderr).toBe(0);
    // The continued session's first request carries the earlier tool result, path and all.
    const resumed = toolResultsSent(s.requests[2]?.body);
    expect(resumed.map(spilledPath)).toEqual([firstPath]);
    expect(await readFile(firstPath, "utf8")).toBe(REASON);
    // Its own spill is a new file of the same folder, not written over the first.
    const secondPath = spilledPath(toolResultsSent(s.requests[3]?.body).at(-1) ?? "");
    expect(path.dirname(secondPath)).toBe(path.dirname(firstPath));
    expect(secondPath).not.toBe(firstPath);
    expect(path.basename(secondPath)).toBe("2-guard-reason.txt");
    expect(await readFile(secondPath, "utf8")).toBe(REASON);
  });
});
