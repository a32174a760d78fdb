/**
 * The payloads and docs/hooks.md cannot drift (issue 20, item 7): one
 * `acai -p --name bob` session that raises most events (tools that succeed,
 * fail and are refused, a subagent, an idle period, a pattern line, a relay
 * message), a user-level hook on every event logging its stdin, and every
 * payload checked against the docs' "Fields per event" table and the
 * paragraphs after it — each documented field is sent (those documented as
 * "when …" aside) and each sent field is documented, `agent_name` included.
 */
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../source/hooks/contract/definition.js";
import {
  type FakeOpenAIServer,
  scriptBySystemPrompt,
  startFakeOpenAI,
} from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, REPO_ROOT, runAcai } from "../support/run-acai.js";
import { modelArgs, STACK_TRACE } from "./helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

interface Documented {
  fields: Set<string>;
  /** Documented as sent only "when …". */
  optional: Set<string>;
}

/** Backticked names of a table cell, outside parentheses (those hold values and notes). */
function namesOf(cell: string): Documented {
  const fields = new Set<string>();
  const optional = new Set<string>();
  const entry = /`([a-z_]+)`\s*(\(([^()]|\([^()]*\))*\))?/g;
  let bare = cell;
  while (/\([^()]*\)/.test(bare)) bare = bare.replace(/\([^()]*\)/g, "");
  for (const match of cell.matchAll(entry)) {
    const name = match[1] ?? "";
    if (!new RegExp(`\`${name}\``).test(bare)) continue;
    fields.add(name);
    if (/^\(when /.test(match[2] ?? "")) optional.add(name);
  }
  return { fields, optional };
}

/** docs/hooks.md's "Fields per event" rows, per event (a repeated row adds to it). */
function documentedFields(docs: string): Map<string, Documented> {
  const start = docs.indexOf("Fields per event");
  const table = docs.slice(start, docs.indexOf("\n\n", docs.indexOf("| event |", start)));
  const rows = new Map<string, Documented>();
  for (const line of table.split("\n")) {
    const match = /^\| `([a-z_]+)` \| (.*) \|$/.exec(line);
    if (!match) continue;
    const found = namesOf(match[2] ?? "");
    const row = rows.get(match[1] ?? "") ?? { fields: new Set(), optional: new Set() };
    for (const f of found.fields) row.fields.add(f);
    for (const f of found.optional) row.optional.add(f);
    rows.set(match[1] ?? "", row);
  }
  return rows;
}

/** The paragraph of docs/hooks.md that starts with `opening`, as one line. */
function paragraph(docs: string, opening: string): string {
  const at = docs.indexOf(opening);
  return docs.slice(at, docs.indexOf("\n\n", at)).replaceAll("\n", " ");
}

const LOGGER = (log: string) => `#!/bin/sh
if [ "$HOOK_ACTION" = describe ]; then
  echo '${JSON.stringify({ name: "log-all", events: HOOK_EVENTS, timeout_ms: 10_000 })}'
  exit 0
fi
cat >> '${log}'
`;

const SUBAGENT = "You are a subagent";

describe("every payload of a session against docs/hooks.md", () => {
  it("sends each documented field, documents each sent one, and agent_name everywhere", async () => {
    dirs = await makeAcaiDirs("acai-payload-docs-");
    const log = path.join(dirs.root, "payloads.jsonl");
    const hook = path.join(dirs.acaiHome, "hooks", "log-all");
    await mkdir(path.dirname(hook), { recursive: true });
    await writeFile(hook, LOGGER(log));
    await chmod(hook, 0o755);
    await writeFile(path.join(dirs.acaiHome, "settings.json"), JSON.stringify({ idleMs: 200 }));
    const task = {
      description: "look around",
      prompt: "list it",
      subagent_type: "general-purpose",
    };
    server = await startFakeOpenAI(
      scriptBySystemPrompt(
        [{ system: SUBAGENT, turns: [{ text: "sub done" }] }],
        [
          // Silent for a while: an idle period.
          { toolCalls: [{ name: "Bash", input: { command: "sleep 1.5; echo hi" } }] },
          { toolCalls: [{ name: "Read", input: { file_path: "missing.txt" } }] },
          { toolCalls: [{ name: "Write", input: { file_path: "notes.txt", content: "x" } }] },
          { toolCalls: [{ name: "Task", input: task }] },
          { text: "All done.\n@notes:todo remember the docs\n@relay:* hello everyone" },
        ],
      ),
    );
    const result = await runAcai({
      dirs,
      args: [
        "-p",
        "go",
        "--name",
        "bob",
        "--allowedTools",
        "Bash,Read,Task",
        ...modelArgs("chat", server),
      ],
      baseUrl: server.url,
      timeoutMs: 60_000,
    });
    expect(result.stderr).not.toMatch(STACK_TRACE);
    expect(result.exitCode, result.stderr).toBe(0);
    const payloads = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);

    const docs = await readFile(path.join(REPO_ROOT, "docs", "hooks.md"), "utf8");
    const rows = documentedFields(docs);
    const common = [
      "event",
      "hook_event_name",
      "session_id",
      "transcript_path",
      "cwd",
      "timestamp",
    ];
    const relay = namesOf(paragraph(docs, "Every event also carries agent-relay's context")).fields;
    const turnParagraph = paragraph(docs, "Every event of a turn");
    const turnEvents = namesOf(
      turnParagraph.slice(0, turnParagraph.indexOf("also carries")),
    ).fields;
    expect([...relay]).toEqual(["agent_name", "project_name", "session_started_at"]);
    expect(turnParagraph).toContain("`permission_mode`");

    const seen = new Set(payloads.map((p) => String(p.event)));
    // The session raised these: the check below is not vacuous.
    for (const event of [
      "session_start",
      "user_prompt",
      "before_model",
      "after_model",
      "output",
      "before_tool",
      "after_tool",
      "after_tool_failure",
      "permission_request",
      "notification",
      "subagent_start",
      "subagent_stop",
      "pattern",
      "message_sent",
      "idle",
      "before_stop",
      "after_agent",
      "session_end",
    ]) {
      expect(seen, event).toContain(event);
    }
    const problems: string[] = [];
    for (const payload of payloads) {
      const event = String(payload.event);
      const row = rows.get(event);
      if (row === undefined) {
        problems.push(`${event}: no row in docs/hooks.md's "Fields per event"`);
        continue;
      }
      const inSubagent =
        "agent_id" in payload && event !== "subagent_start" && event !== "subagent_stop";
      const allowed = new Set([
        ...common,
        ...row.fields,
        ...relay,
        "permission_mode",
        ...(turnEvents.has(event) ? ["prompt_id"] : []),
        ...(inSubagent ? ["agent_id", "agent_type"] : []),
      ]);
      for (const key of Object.keys(payload)) {
        if (!allowed.has(key)) problems.push(`${event}: sends \`${key}\`, not documented`);
      }
      const required = [...common, ...row.fields].filter((f) => !row.optional.has(f));
      for (const field of [...required, ...relay, "permission_mode"]) {
        if (!(field in payload)) problems.push(`${event}: documents \`${field}\`, not sent`);
      }
      if (turnEvents.has(event) && !("prompt_id" in payload)) {
        problems.push(`${event}: documents \`prompt_id\`, not sent`);
      }
      if (payload.agent_name !== "bob")
        problems.push(`${event}: agent_name is ${payload.agent_name}`);
    }
    expect([...new Set(problems)]).toEqual([]);
  });
});
