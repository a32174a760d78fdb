/**
 * `defineHook` with `mode: "persistent"` under `HOOK_ACTION=serve` (hooks.md
 * §6.4): one answer per request line with its id, overlapping handlers
 * answered as they finish, failures answered as `error` for that id only.
 */
import { describe, expect, it } from "vitest";
import { createHook, type HookIO, runHook } from "../../source/sdk/hooks.js";

function serveIo(lines: string[]) {
  const out = { stdout: "", stderr: "" };
  const io: HookIO = {
    env: { HOOK_ACTION: "serve" },
    stdin: (async function* () {
      // Lines cut across chunks: the helper reassembles them.
      const text = lines.join("");
      yield text.slice(0, 7);
      yield text.slice(7);
    })(),
    stdout: async (text) => {
      out.stdout += text;
    },
    stderr: async (text) => {
      out.stderr += text;
    },
  };
  return { io, out };
}

const request = (id: number, extra: Record<string, unknown> = {}) =>
  `${JSON.stringify({ id, event: "user_prompt", hook_event_name: "UserPromptSubmit", session_id: "s", transcript_path: "/t", cwd: "/p", timestamp: "2026-01-01T00:00:00.000Z", prompt: "hi", turn: 1, ...extra })}\n`;

describe("defineHook persistent", () => {
  it("answers each request line with its id; overlapping handlers answer as they finish", async () => {
    const hook = createHook(
      { name: "p", events: ["user_prompt"], mode: "persistent" },
      async (event) => {
        if (event.prompt === "slow") await new Promise((r) => setTimeout(r, 50));
        if (event.prompt === "boom") throw new Error("no database");
        return event.prompt === "quiet" ? undefined : { context: `saw ${event.prompt}` };
      },
    );
    const { io, out } = serveIo([
      request(1, { prompt: "slow" }),
      request(2),
      request(3, { prompt: "boom" }),
      request(4, { prompt: "quiet" }),
      "not json\n",
      `${JSON.stringify({ id: 5, event: "before_tool" })}\n`,
    ]);
    expect(await runHook(hook, io)).toBe(0);
    const answers = out.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    // The slow one answers last; the others in whatever order their handlers end.
    expect(answers.at(-1)).toEqual({ id: 1, context: "saw slow" });
    const byId = new Map(answers.map((a) => [a.id, a]));
    expect(byId.get(2)).toEqual({ id: 2, context: "saw hi" });
    expect(byId.get(3)).toEqual({ id: 3, error: "p: no database" });
    expect(byId.get(4)).toEqual({ id: 4 });
    expect(byId.get(5)?.error).toMatch(/only handles user_prompt/);
    expect(answers).toHaveLength(5);
    expect(out.stderr).toMatch(/a request without an "id" was ignored/);
  });

  it("describe prints mode persistent", async () => {
    const hook = createHook(
      { name: "p", events: ["user_prompt"], mode: "persistent" },
      () => undefined,
    );
    const { io, out } = serveIo([]);
    expect(await runHook(hook, { ...io, env: { HOOK_ACTION: "describe" } })).toBe(0);
    expect(JSON.parse(out.stdout)).toMatchObject({ mode: "persistent" });
  });
});
