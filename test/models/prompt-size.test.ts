import { describe, expect, it } from "vitest";
import { createPromptSizer } from "../../source/models/prompt-size.js";

const message = (role: string, text: string) => ({ role, content: [{ type: "text", text }] });

describe("createPromptSizer", () => {
  it("gives the length of the whole prompt as JSON as a conversation grows", () => {
    const size = createPromptSizer();
    const prompt: unknown[] = [];
    expect(size(prompt)).toBe(JSON.stringify(prompt).length);
    prompt.push({ role: "system", content: "You are a test." });
    expect(size(prompt)).toBe(JSON.stringify(prompt).length);
    for (let i = 0; i < 30; i++) {
      prompt.push(message(i % 2 ? "assistant" : "user", `message ${i} "quoted" ü`.repeat(i)));
      if (i % 3 === 0) prompt.push(message("tool", `result ${i}`));
      // A fresh copy each time, as the AI SDK converts the history at every request.
      expect(size(structuredClone(prompt))).toBe(JSON.stringify(prompt).length);
    }
  });

  it("measures again when the start of the conversation is replaced (a compaction)", () => {
    const size = createPromptSizer();
    const system = { role: "system", content: "s" };
    const long = [system, ...Array.from({ length: 20 }, (_, i) => message("user", `old ${i}`))];
    size(long);
    const compacted = [system, message("user", "summary of the conversation"), ...long.slice(15)];
    expect(size(compacted)).toBe(JSON.stringify(compacted).length);
    // Longer than before again, with a different start: still exact.
    const grown = [
      ...compacted,
      ...Array.from({ length: 20 }, (_, i) => message("user", `new ${i}`)),
    ];
    expect(size(grown)).toBe(JSON.stringify(grown).length);
    // A replaced start in a prompt as long as before, or longer, is noticed too.
    const replaced = [
      system,
      message("user", "another summary"),
      ...grown.slice(2),
      message("user", "x"),
    ];
    expect(size(replaced)).toBe(JSON.stringify(replaced).length);
  });

  it("measures again when the last message it saw changed, or the prompt got shorter", () => {
    const size = createPromptSizer();
    const prompt = [message("system", "s"), message("user", "a"), message("assistant", "b")];
    size(prompt);
    const edited = [
      prompt[0],
      prompt[1],
      message("assistant", "a much longer answer"),
      message("user", "c"),
    ];
    expect(size(edited)).toBe(JSON.stringify(edited).length);
    const shorter = edited.slice(0, 2);
    expect(size(shorter)).toBe(JSON.stringify(shorter).length);
  });
});
