/**
 * Telemetry through `acai -p` (docs/telemetry.md): with ACAI_ENABLE_TELEMETRY=1
 * a collector the test starts receives the session's spans nested as they
 * happen (session ⊃ turn ⊃ tool call ⊃ hook run), the hook and tool metrics,
 * and the audit log's lines as log records — without the prompt, the tool
 * input or what a hook printed, unless the user opts in.
 */
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bwrapWorks } from "../support/bwrap.js";
import {
  type OtlpReceiver,
  receivedLogRecords,
  receivedMetricNames,
  receivedSpans,
  startOtlpReceiver,
} from "../support/otlp-receiver.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

let dirs: AcaiDirs | undefined;
let receiver: OtlpReceiver | undefined;
afterEach(async () => {
  await dirs?.cleanup();
  await receiver?.close();
  dirs = undefined;
  receiver = undefined;
});

const PROMPT = "zebra-prompt-text-7731";
const SECRET_INPUT = "echo giraffe-input-4410";
const HOOK_REASON = "okapi-hook-reason-9902";

async function runWithTelemetry(env: Record<string, string> = {}, extra: object = {}) {
  const d = await makeAcaiDirs("acai-otel-");
  dirs = d;
  const r = await startOtlpReceiver();
  receiver = r;
  const settings = {
    hooks: {
      PreToolUse: [
        {
          matcher: "Bash",
          hooks: [{ type: "command", command: `cat >/dev/null; echo ${HOOK_REASON} >&2; exit 2` }],
        },
      ],
      PostToolUse: [{ matcher: "Read", hooks: [{ type: "command", command: "cat >/dev/null" }] }],
    },
    ...extra,
  };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  await writeFile(path.join(d.cwd, "notes.txt"), "hello\n");
  await writeFile(
    path.join(d.cwd, "replay.json"),
    JSON.stringify({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: SECRET_INPUT } }] },
        { tool_calls: [{ name: "Read", input: { file_path: "notes.txt" } }] },
        { text: "done" },
      ],
    }),
  );
  const run = await runAcai({
    args: ["-p", PROMPT, "--model", "replay:replay.json", "--yes"],
    dirs: d,
    env: {
      ACAI_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: r.endpoint,
      OTEL_METRIC_EXPORT_INTERVAL: "600000",
      ...env,
    },
  });
  expect(run.exitCode, run.stderr).toBe(0);
  return { run, r };
}

describe("telemetry on", () => {
  it("exports spans nested session ⊃ turn ⊃ tool ⊃ hook, metrics and audit log records", async () => {
    const { r } = await runWithTelemetry();
    const spans = receivedSpans(r.bodies.traces);
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentName = (s: { parentSpanId?: string }) =>
      s.parentSpanId ? byId.get(s.parentSpanId)?.name : undefined;

    const session = spans.find((s) => s.name === "acai.session");
    expect(session?.parentSpanId).toBeUndefined();
    const turn = spans.find((s) => s.name === "acai.turn");
    expect(turn && parentName(turn)).toBe("acai.session");
    const tools = spans.filter((s) => s.name === "acai.tool");
    expect(tools.map((t) => t.attributes["acai.tool.name"])).toEqual(["Bash", "Read"]);
    for (const tool of tools) expect(parentName(tool)).toBe("acai.turn");
    const bash = tools[0];
    expect(bash?.attributes["acai.tool.blocked"]).toBe(true);
    const models = spans.filter((s) => s.name === "acai.model_request");
    expect(models).toHaveLength(3);

    const hooks = spans.filter((s) => s.name === "acai.hook");
    const before = hooks.find((h) => h.attributes["acai.hook.event"] === "before_tool");
    expect(before && byId.get(before.parentSpanId ?? "")?.attributes["acai.tool.name"]).toBe(
      "Bash",
    );
    expect(before?.attributes["acai.hook.outcome"]).toBe("block");
    expect(before?.attributes["acai.hook.exit_code"]).toBe(2);
    expect(before?.attributes["acai.hook.source"]).toBe("settings");
    const after = hooks.find((h) => h.attributes["acai.hook.event"] === "after_tool");
    expect(after && byId.get(after.parentSpanId ?? "")?.attributes["acai.tool.name"]).toBe("Read");
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(1);
    // Each hook says whether it ran in the OS sandbox: here, when bubblewrap works, they did.
    expect(session?.attributes["acai.sandbox"]).toBe(bwrapWorks);
    for (const hook of hooks) expect(hook.attributes["acai.hook.sandboxed"]).toBe(bwrapWorks);

    const metrics = receivedMetricNames(r.bodies.metrics);
    for (const name of ["acai.hook.runs", "acai.hook.duration", "acai.tool.calls", "acai.tokens"]) {
      expect(metrics, name).toContain(name);
    }

    const records = receivedLogRecords(r.bodies.logs);
    const blocked = records.find((rec) => rec["acai.event"] === "before_tool");
    expect(blocked?.["acai.decision"]).toBe("block");
    expect(blocked?.["acai.exit_code"]).toBe(2);

    // Nothing of the conversation left the machine.
    const everything = r.raw.join("\n");
    expect(everything).not.toContain(PROMPT);
    expect(everything).not.toContain("giraffe-input");
    expect(everything).not.toContain(HOOK_REASON);
  });

  it("a hook run with the sandbox turned off is not sandboxed", async () => {
    const { r } = await runWithTelemetry({}, { sandbox: { enabled: false } });
    const spans = receivedSpans(r.bodies.traces);
    expect(spans.find((s) => s.name === "acai.session")?.attributes["acai.sandbox"]).toBe(false);
    const hooks = spans.filter((s) => s.name === "acai.hook");
    expect(hooks.map((h) => h.attributes["acai.hook.event"])).toEqual([
      "before_tool",
      "after_tool",
    ]);
    for (const hook of hooks) expect(hook.attributes["acai.hook.sandboxed"]).toBe(false);
  });

  it("sends the prompt, the tool input and hook output only when the user opts in", async () => {
    const { r } = await runWithTelemetry({
      OTEL_LOG_USER_PROMPTS: "1",
      OTEL_LOG_TOOL_DETAILS: "1",
    });
    const spans = receivedSpans(r.bodies.traces);
    expect(spans.find((s) => s.name === "acai.turn")?.attributes["acai.prompt"]).toBe(PROMPT);
    const bash = spans.find((s) => s.attributes["acai.tool.name"] === "Bash");
    expect(String(bash?.attributes["acai.tool.input"])).toContain("giraffe-input");
    const records = receivedLogRecords(r.bodies.logs);
    expect(
      String(records.find((rec) => rec["acai.event"] === "before_tool")?.["acai.reason"]),
    ).toContain(HOOK_REASON);
  });
});

describe("telemetry off, or asked for by a project", () => {
  it("sends nothing when it is off, even with an endpoint set", async () => {
    const d = await makeAcaiDirs("acai-otel-off-");
    dirs = d;
    const r = await startOtlpReceiver();
    receiver = r;
    await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns: [{ text: "hi" }] }));
    await writeFile(
      path.join(d.acaiHome, "settings.json"),
      JSON.stringify({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: r.endpoint } }),
    );
    const run = await runAcai({ args: ["-p", PROMPT, "--model", "replay:replay.json"], dirs: d });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(r.raw).toEqual([]);
  });

  it("a trusted project's settings can neither turn it on nor send it to their own collector", async () => {
    const d = await makeAcaiDirs("acai-otel-project-");
    dirs = d;
    const theirs = await startOtlpReceiver();
    receiver = theirs;
    await writeFile(path.join(d.cwd, "replay.json"), JSON.stringify({ turns: [{ text: "hi" }] }));
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(d.cwd, ".acai"), { recursive: true });
    const projectEnv = { ACAI_ENABLE_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: theirs.endpoint };
    await writeFile(
      path.join(d.cwd, ".acai", "settings.json"),
      JSON.stringify({ env: projectEnv }),
    );
    const run = await runAcai({
      args: ["-p", PROMPT, "--model", "replay:replay.json", "--trust-project"],
      dirs: d,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain("ACAI_ENABLE_TELEMETRY, OTEL_EXPORTER_OTLP_ENDPOINT");
    expect(theirs.raw).toEqual([]);
  });
});
