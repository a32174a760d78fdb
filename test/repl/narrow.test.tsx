import { describe, expect, it } from "vitest";
import { HookLine } from "../../source/repl/components/HookLine.js";
import { ItemView } from "../../source/repl/components/ItemView.js";
import { inputRows } from "../../source/repl/components/PromptInput.js";
import { StatusLine } from "../../source/repl/components/StatusLine.js";
import { TrustScreen } from "../../source/repl/components/TrustScreen.js";
import { initialViewState, reduce } from "../../source/repl/state.js";
import { render } from "../support/ink-render.js";

const usage = (i: number, o: number) => ({ inputTokens: i, outputTokens: o, totalTokens: i + o });
const lines = (frame: string | undefined) => (frame ?? "").split("\n");

describe("prompt input rows", () => {
  it("cuts a long line at the width and keeps the cursor on its row", () => {
    const rows = inputRows({ value: "abcdefghij", cursor: 7 }, 4);
    expect(rows.map((r) => r.text)).toEqual(["abcd", "efgh", "ij"]);
    expect(rows.map((r) => r.cursor)).toEqual([undefined, 3, undefined]);
    expect(rows.map((r) => r.first)).toEqual([true, false, false]);
  });

  it("the cursor just past a full row gets a row of its own; past a short row it stays", () => {
    expect(inputRows({ value: "abcd", cursor: 4 }, 4)).toEqual([
      { text: "abcd", first: true },
      { text: "", cursor: 0, first: false },
    ]);
    expect(inputRows({ value: "abc", cursor: 3 }, 4)).toEqual([
      { text: "abc", cursor: 3, first: true },
    ]);
  });

  it("keeps logical lines apart and places the cursor on the right one", () => {
    const rows = inputRows({ value: "ab\n\ncdefg", cursor: 4 }, 4);
    expect(rows.map((r) => r.text)).toEqual(["ab", "", "cdef", "g"]);
    expect(rows.map((r) => r.cursor)).toEqual([undefined, undefined, 0, undefined]);
    expect(inputRows({ value: "", cursor: 0 }, 4)).toEqual([{ text: "", cursor: 0, first: true }]);
  });

  it("does not split a surrogate pair", () => {
    const rows = inputRows({ value: "abc😀d", cursor: 0 }, 4);
    expect(rows.map((r) => r.text)).toEqual(["abc", "😀d"]);
  });
});

describe("narrow panes (40 columns)", () => {
  it("a submitted prompt wraps under itself, words whole, no row starting with a blank", () => {
    const { lastFrame } = render(
      <ItemView
        item={{
          kind: "user",
          id: 1,
          text: "Summarize this project into ACAI_DEMO.md please, with a long prompt that wraps",
        }}
        width={40}
      />,
    );
    const rows = lines(lastFrame()).filter((l) => l.trim());
    expect(rows[0]).toBe("› Summarize this project into");
    expect(rows.slice(1)).toEqual(["  ACAI_DEMO.md please, with a long", "  prompt that wraps"]);
  });

  it("a hook's long reason goes under its header, indented and wrapped", () => {
    const detail =
      "refusing to run `git push --force`: a force push rewrites shared history; ask the user";
    const { lastFrame } = render(
      <HookLine
        item={{
          kind: "hook",
          id: 1,
          name: "guard",
          event: "before_tool",
          outcome: "block",
          detail,
          durationMs: 8,
        }}
        width={40}
      />,
    );
    const rows = lines(lastFrame());
    expect(rows[0]).toBe("⚑ hook guard blocked before_tool (8ms)");
    expect(rows.slice(1).every((row) => row.startsWith("  ") && row.length <= 40)).toBe(true);
    expect(rows.slice(1).some((row) => row.startsWith("   "))).toBe(false);
    expect(rows.slice(1).join(" ").replace(/\s+/g, " ").trim()).toBe(detail);

    const wide = render(
      <HookLine
        item={{
          kind: "hook",
          id: 1,
          name: "guard",
          event: "before_tool",
          outcome: "block",
          detail: "no",
          durationMs: 8,
        }}
        width={80}
      />,
    );
    expect(wide.lastFrame()).toBe("⚑ hook guard blocked before_tool: no (8ms)");
  });

  it("the status line puts the numbers first and the model last", () => {
    let view = reduce(initialViewState(), {
      type: "session",
      model: "replay:examples/replay/demo.json",
    });
    view = reduce(view, {
      type: "event",
      event: { type: "user_prompt", turn: 1, prompt: "p" },
      at: 0,
    });
    view = reduce(view, {
      type: "event",
      event: {
        type: "turn_end",
        turn: 1,
        stopReason: "end_turn",
        text: "",
        usage: usage(3900, 165),
      },
      at: 187,
    });
    const narrow = render(<StatusLine view={view} busy={false} queued={0} width={40} />);
    expect(narrow.lastFrame()).toBe("187ms ↑3.9k ↓165 · Σ 4.1k tok · replay:demo.json");
    const wide = render(<StatusLine view={view} busy={false} queued={0} width={80} />);
    expect(wide.lastFrame()).toBe(
      "replay:demo.json · last turn 187ms ↑3.9k ↓165 · session 4.1k tok",
    );
  });

  it("the trust screen wraps its text inside the box and shows an executable's path once", () => {
    const { lastFrame } = render(
      <TrustScreen
        hooks={[
          {
            name: "guard",
            file: "/p/.acai/hooks/guard",
            command: "/p/.acai/hooks/guard",
            events: [],
            note: "not described yet",
          },
        ]}
        onChoose={() => {}}
        width={40}
      />,
    );
    const frame = lastFrame() ?? "";
    expect(frame).toContain("guard (not described yet)");
    expect(frame.split("/p/.acai/hooks/guard").length - 1).toBe(1);
    // Wrapped for 36 columns inside the box, breaks eat the space (the pane here is 100 wide).
    expect(frame).toContain("│ They run as programs on your machine ");
    expect(frame).toContain("│ at points of the agent loop. Trust ");
  });
});
