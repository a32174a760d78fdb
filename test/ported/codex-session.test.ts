/**
 * Codex's own Stop / SessionStart / UserPromptSubmit scenarios
 * (codex-rs/core/tests/suite/hooks.rs), ported to `acai -p`: python3 hooks
 * in Codex's hooks.json shape (put into acai's settings.json). Asserted on
 * what the scripted model server received. SCENARIOS.md maps each one.
 */
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { codexGroup, type Ported, ported } from "./ported-support.js";

let p: Ported | undefined;
afterEach(async () => {
  await p?.cleanup();
  p = undefined;
});

const FIRST = "Retry with exactly the phrase meow meow meow.";
const SECOND = "Now tighten it to just: meow.";

/** Codex's write_stop_hook: block with the n-th prompt on the n-th stop, then pass. */
async function stopHook(t: Ported, prompts: string[]): Promise<void> {
  const script = await t.python(
    "Stop",
    `prompts = json.loads(sys.argv[1])
count_file = sys.argv[2]
try:
    n = int(open(count_file).read())
except Exception:
    n = 0
open(count_file, "w").write(str(n + 1))
if n < len(prompts):
    print(json.dumps({"decision": "block", "reason": prompts[n]}))
else:
    print(json.dumps({"systemMessage": f"stop hook pass {n + 1} complete"}))
`,
  );
  const args = `'${JSON.stringify(prompts)}' '${t.dirs.root}/stop-count'`;
  await t.settings({ hooks: { Stop: [codexGroup(`${script} ${args}`)] } });
}

const spillPath = (text: string) => /(\/\S+?hook-output\/\S+?\.txt)/.exec(text)?.[1];

describe("Codex: Stop", () => {
  it("a Stop hook can block several times in one turn; each continuation prompt reaches the model and stays", {
    timeout: 60_000,
  }, async () => {
    p = await ported("codex-stop-twice-", [
      { text: "draft one" },
      { text: "draft two" },
      { text: "final draft" },
    ]);
    await stopHook(p, [FIRST, SECOND]);
    const run = await p.run("hello from the sea");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(3);
    expect(p.sent(1)).toContain(FIRST);
    expect(p.sent(2)).toContain(FIRST);
    expect(p.sent(2)).toContain(SECOND);
    const inputs = await p.payloads("Stop");
    expect(inputs.map((i) => i.stop_hook_active)).toEqual([false, true, true]);
    expect(new Set(inputs.map((i) => i.turn)).size).toBe(1);
    expect(run.stdout).toContain("final draft");
  });

  it("two blocking Stop hooks: the model gets both reasons, in order, in one continuation", async () => {
    p = await ported("codex-stop-parallel-", [{ text: "draft one" }, { text: "final draft" }]);
    const hooks = [];
    for (const [i, prompt] of [FIRST, SECOND].entries()) {
      const script = await p.python(
        `Stop${i}`,
        `if payload["stop_hook_active"]:
    print(json.dumps({"systemMessage": "done"}))
else:
    print(json.dumps({"decision": "block", "reason": ${JSON.stringify(prompt)}}))
`,
      );
      hooks.push({ type: "command", command: script });
    }
    await p.settings({ hooks: { Stop: [{ hooks: hooks }] } });
    const run = await p.run("hello again");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(2);
    const sent = p.sent(1);
    expect(sent).toContain(FIRST);
    expect(sent).toContain(SECOND);
    expect(sent.indexOf(FIRST)).toBeLessThan(sent.indexOf(SECOND));
  });

  it("a continuation prompt over the cap is spilled to a file: the model gets a preview and the path", async () => {
    p = await ported("codex-stop-spill-", [{ text: "draft one" }, { text: "draft two" }]);
    const long = Array(800).fill("retry with the reef note").join(" ");
    await stopHook(p, [long]);
    const run = await p.run("hello from the sea");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(2);
    const file = spillPath(p.sent(1));
    expect(file, p.sent(1)).toBeDefined();
    expect(file?.startsWith(p.dirs.acaiHome)).toBe(true);
    expect(await readFile(file ?? "", "utf8")).toBe(long);
  });

  it("a resumed session keeps the Stop continuation prompt in its history", {
    timeout: 60_000,
  }, async () => {
    p = await ported("codex-stop-resume-", [
      { text: "initial draft" },
      { text: "revised draft" },
      { text: "fresh turn after resume" },
    ]);
    await stopHook(p, [FIRST]);
    const first = await p.run("tell me something");
    expect(first.exitCode, first.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(2);
    const resumed = await p.run("and now continue", { extra: ["--continue"] });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(3);
    expect(p.sent(2)).toContain(FIRST);
    expect(p.sent(2)).toContain("and now continue");
  });
});

describe("Codex: SessionStart", () => {
  it("the transcript_path a SessionStart hook receives already exists", async () => {
    p = await ported("codex-session-transcript-", [{ text: "hello from the reef" }]);
    const script = await p.python(
      "SessionStart",
      `import os
with open(sys.argv[1], "w") as out:
    out.write(json.dumps({"exists": os.path.exists(payload.get("transcript_path") or "")}))
`,
    );
    const record = `${p.dirs.root}/exists.json`;
    await p.settings({ hooks: { SessionStart: [codexGroup(`${script} ${record}`)] } });
    const run = await p.run("hello");
    expect(run.exitCode, run.stderr).toBe(0);
    const [input] = await p.payloads("SessionStart");
    expect(String(input?.transcript_path)).not.toBe("");
    expect(JSON.parse(await readFile(record, "utf8"))).toEqual({ exists: true });
  });

  it("additionalContext over the cap is spilled: the model gets the path, the file holds all of it", async () => {
    p = await ported("codex-session-spill-", [{ text: "hello from the reef" }]);
    const long = "remember the reef ".repeat(800);
    const script = await p.python(
      "SessionStart",
      `print(json.dumps({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": ${JSON.stringify(long)}}}))
`,
    );
    await p.settings({ hooks: { SessionStart: [codexGroup(script)] } });
    const run = await p.run("hello");
    expect(run.exitCode, run.stderr).toBe(0);
    const file = spillPath(p.sent(0));
    expect(file, p.sent(0)).toBeDefined();
    expect(await readFile(file ?? "", "utf8")).toBe(long);
  });
});

describe("Codex: UserPromptSubmit", () => {
  const NOTE = "Remember the blocked lighthouse note.";
  const blockingHook = (t: Ported) =>
    t.python(
      "UserPromptSubmit",
      `if payload.get("prompt") == "blocked first prompt":
    print(json.dumps({"decision": "block", "reason": "blocked by hook", "hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": ${JSON.stringify(NOTE)}}}))
`,
    );

  it("a blocked prompt never reaches the model; its additionalContext goes with the session's next turn (-p, then -p -c)", {
    timeout: 60_000,
  }, async () => {
    p = await ported("codex-prompt-block-", [{ text: "second prompt handled" }]);
    await p.settings({ hooks: { UserPromptSubmit: [codexGroup(await blockingHook(p))] } });
    const blocked = await p.run("blocked first prompt");
    // As before: exit 3 with the reason.
    expect(blocked.exitCode).toBe(3);
    expect(blocked.stderr).toContain(
      "hook UserPromptSubmit.py blocked user_prompt: blocked by hook",
    );
    expect(p.server.requests).toHaveLength(0);
    const next = await p.run("second prompt", { extra: ["--continue"] });
    expect(next.exitCode, next.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(1);
    const sent = p.sent(0);
    expect(sent).toContain("second prompt");
    expect(sent).toContain(NOTE);
    expect(sent).not.toContain("blocked first prompt");
    // The context comes after the prompt it goes with, as a system reminder.
    expect(sent.indexOf("second prompt")).toBeLessThan(sent.indexOf(NOTE));
    const inputs = await p.payloads("UserPromptSubmit");
    expect(inputs.map((i) => i.prompt)).toEqual(["blocked first prompt", "second prompt"]);
    // One session: the continued run is the blocked one's.
    expect(inputs[1]?.session_id).toBe(inputs[0]?.session_id);
  });

  it("the kept context is sent once: a third run of the session does not get it again", {
    timeout: 60_000,
  }, async () => {
    p = await ported("codex-prompt-block-once-", [
      { text: "second handled" },
      { text: "third handled" },
    ]);
    await p.settings({ hooks: { UserPromptSubmit: [codexGroup(await blockingHook(p))] } });
    await p.run("blocked first prompt");
    const second = await p.run("second prompt", { extra: ["--continue"] });
    expect(second.exitCode, second.stderr).toBe(0);
    const third = await p.run("third prompt", { extra: ["--continue"] });
    expect(third.exitCode, third.stderr).toBe(0);
    expect(p.server.requests).toHaveLength(2);
    const sent = p.sent(1);
    expect(sent).toContain("third prompt");
    // Once, from the history of the second turn; not queued anew.
    expect(sent.split(NOTE).length - 1).toBe(1);
  });
});
