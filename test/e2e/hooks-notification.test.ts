/**
 * `notification` (contract §2) fires when acai needs the user — in `acai -p`
 * too: a hook's `ask` (on before_tool: a permission question) runs the
 * notification hooks before it is denied (or approved with --yes).
 */
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { jsonLines, modelArgs, readJsonl, STACK_TRACE, transcripts } from "./helpers.js";

let dirs: AcaiDirs;
let server: FakeOpenAIServer | undefined;

beforeEach(async () => {
  dirs = await makeAcaiDirs("acai-notify-e2e-");
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs.cleanup();
});

const q = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

async function setup(): Promise<{ seen: string; file: string }> {
  const seen = path.join(dirs.root, "notifications.jsonl");
  const file = path.join(dirs.cwd, "asked.txt");
  const ask = JSON.stringify({ action: "ask", reason: "WRITE-NEEDS-OK" });
  const hooks = {
    PreToolUse: [
      {
        matcher: "Write",
        hooks: [{ type: "command", name: "write-guard", command: `cat >/dev/null; echo '${ask}'` }],
      },
    ],
    Notification: [
      {
        matcher: "permission_prompt",
        hooks: [
          { type: "command", name: "notifier", command: `cat >> ${q(seen)}; echo >> ${q(seen)}` },
        ],
      },
    ],
  };
  await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ hooks }));
  return { seen, file };
}

async function notifications(file: string): Promise<Record<string, unknown>[]> {
  if (!existsSync(file)) return [];
  const text = await readFile(file, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("notification hooks in acai -p", () => {
  it.each([
    ["denied headless", [] as string[], false],
    ["approved with --yes", ["--yes"], true],
  ])("see a hook's ask (%s)", async (_label, extra, written) => {
    const { seen, file } = await setup();
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: file, content: "x" } }] },
      { text: "finished" },
    ]);
    const result = await runAcai({
      args: ["-p", "write it", ...extra, ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(existsSync(file)).toBe(written);
    const got = await notifications(seen);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject({
      event: "notification",
      hook_event_name: "Notification",
      notification_type: "permission_prompt",
      message: expect.stringContaining("write-guard"),
    });
    expect(String(got[0]?.message)).toContain("WRITE-NEEDS-OK");
    const audit = await readFile(path.join(dirs.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
    expect(audit).toContain('"event":"notification"');
  });

  it("stream-json has the notification event, before the ask is answered; the transcript records it", async () => {
    const { file } = await setup();
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: file, content: "x" } }] },
      { text: "finished" },
    ]);
    const result = await runAcai({
      args: ["-p", "write it", "--output-format", "stream-json", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const lines = jsonLines(result.stdout);
    const notifications = lines.filter((l) => l.type === "notification");
    // The before_tool hook's ask is the permission question's reason; it is raised after
    // the hook's end, before the question is answered (denied: acai -p without --yes).
    expect(notifications).toEqual([
      {
        type: "notification",
        message:
          'acai needs your permission to use Write (hook "write-guard" asks: WRITE-NEEDS-OK)',
        notificationType: "permission_prompt",
      },
    ]);
    const at = lines.indexOf(notifications[0]!);
    const guardEnd = lines.findIndex(
      (l) => l.type === "hook_end" && (l.hook as { name: string }).name === "write-guard",
    );
    const denied = lines.findIndex((l) => l.type === "tool_call_error");
    expect(lines[guardEnd]).toMatchObject({ outcome: "ask" });
    expect(at).toBeGreaterThan(guardEnd);
    expect(at).toBeLessThan(denied);
    expect(lines[denied]).toMatchObject({ blocked: true, denied: true });

    const [transcript] = await transcripts(dirs.acaiHome);
    const recorded = (await readJsonl(transcript!)) as { event?: { type: string } }[];
    expect(recorded.filter((l) => l.event?.type === "notification")).toEqual([
      expect.objectContaining({ event: notifications[0] }),
    ]);
  });

  it("a notification hook whose matcher names another type does not run for an ask", async () => {
    const { seen, file } = await setup();
    const settings = path.join(dirs.acaiHome, "settings.json");
    await writeFile(
      settings,
      (await readFile(settings, "utf8")).replace('"permission_prompt"', '"idle_prompt"'),
    );
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Write", input: { file_path: file, content: "x" } }] },
      { text: "finished" },
    ]);
    const result = await runAcai({
      args: ["-p", "write it", ...modelArgs("chat", server)],
      dirs,
      baseUrl: server.url,
    });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await notifications(seen)).toEqual([]);
  });
});
