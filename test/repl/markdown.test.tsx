import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { InterceptedEvent } from "../../source/hooks/run/activity.js";
import { App } from "../../source/repl/app.js";
import { ItemView } from "../../source/repl/components/ItemView.js";
import { ReplController } from "../../source/repl/controller.js";
import { loadMarkdown } from "../../source/repl/markdown/load.js";
import { ThemeContext } from "../../source/repl/theme.js";
import type { ProjectTrustState } from "../../source/session/types.js";
import { cleanup, render } from "../support/ink-render.js";
import { fakeSession, type TurnContext, usage, waitFor } from "./fake-session.js";

const NO_PROJECT_HOOKS: ProjectTrustState = {
  status: "no-project-hooks",
  review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
  untrusted: [],
  trust: async () => {},
};

const dirs: string[] = [];
afterEach(async () => {
  cleanup();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const MESSAGE = [
  "# Release notes",
  "Use **bold** words, `npm test` and [the docs](https://example.com/docs).",
  "",
  "- first point",
  "- [x] a finished task",
  "",
  "```ts",
  "const answer = 42;",
  "```",
  "",
  "| File | Lines |",
  "|------|------:|",
  "| a.ts | 7 |",
  "| longer.ts | 1234 |",
  "",
  "Done \u001b]0;pwned\u0007here.",
].join("\n");

/** One model step: the text streamed in `chunk`-sized deltas, or (chunk 0) given only whole. */
async function* answer(ctx: TurnContext, chunk: number): AsyncGenerator<InterceptedEvent> {
  if (chunk > 0) {
    for (let i = 0; i < MESSAGE.length; i += chunk) {
      yield { type: "text_delta", turn: ctx.turn, step: 1, text: MESSAGE.slice(i, i + chunk) };
      await new Promise((r) => setImmediate(r));
    }
  }
  yield {
    type: "model_response",
    turn: ctx.turn,
    step: 1,
    model: "fake-model",
    text: MESSAGE,
    toolCalls: [],
    usage: usage(1, 1),
    finishReason: "stop",
    durationMs: 1,
  };
  yield { type: "turn_end", turn: ctx.turn, stopReason: "end_turn", text: "", usage: usage(1, 1) };
}

async function setup(chunk: number) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-md-"));
  dirs.push(dir);
  const session = fakeSession({ turn: (ctx) => answer(ctx, chunk) });
  const controller = new ReplController({
    prepare: async () => session,
    trust: NO_PROJECT_HOOKS,
    projectHooks: "require-trust",
    acaiHome: dir,
    env: {},
    exitBudgetMs: 2000,
  });
  const ui = render(<App controller={controller} color={false} />);
  void controller.run();
  const frame = () => ui.lastFrame() ?? "";
  await waitFor(() => frame().includes("ask anything"), "the prompt");
  ui.stdin.write("notes\r");
  // One character at a time through ink, each a render of the whole message: ~2 s alone,
  // 20-25 s for the four sessions beside three busy loops, over 40 s for one in a CI run.
  await waitFor(
    () => frame().includes("here.") && frame().includes("last turn"),
    "the answer",
    150_000,
  );
  const all = frame();
  return all.slice(all.indexOf("› notes"), all.indexOf("here.") + "here.".length);
}

describe("assistant Markdown in the REPL", () => {
  it("is rendered: headings, bold, inline code, links, lists, code blocks, tables; escapes stripped", async () => {
    const shown = await setup(0);
    const lines = shown.split("\n").map((line) => line.trimEnd());
    expect(lines).toEqual([
      "› notes",
      "Release notes",
      "Use bold words, `npm test` and the docs (https://example.com/docs).",
      "",
      "• first point",
      "• ☑ a finished task",
      "",
      "  ┌ ts",
      "  │ const answer = 42;",
      "  └",
      "",
      "File      │ Lines",
      "──────────┼──────",
      "a.ts      │     7",
      "longer.ts │  1234",
      "",
      "Done here.",
    ]);
    expect(shown).not.toContain("pwned");
  });

  // Four REPL sessions one after another (seconds alone): on a loaded machine (a CI run at
  // load 14) they took over the default 20 s, so this one test gets more time.
  it("streamed in small pieces, it ends up exactly as the whole message is shown", {
    timeout: 300_000,
  }, async () => {
    const whole = await setup(0);
    cleanup();
    for (const chunk of [1, 3, 7]) {
      expect(await setup(chunk)).toBe(whole);
      cleanup();
    }
  });

  it("wraps to the pane: a paragraph breaks between words, a table shares the width", async () => {
    await loadMarkdown();
    const item = { kind: "assistant", id: 1, text: MESSAGE, continued: false } as const;
    const { lastFrame } = render(
      <ThemeContext.Provider value={{ color: false, now: Date.now }}>
        <ItemView item={item} width={30} />
      </ThemeContext.Provider>,
    );
    const lines = (lastFrame() ?? "").split("\n").map((line) => line.trimEnd());
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(30);
    expect(lines.slice(1, 4)).toEqual([
      "Use bold words, `npm test` and",
      "the docs",
      "(https://example.com/docs).",
    ]);
    expect(lines).toContain("longer.ts │  1234");
  });
});
