/**
 * hooks/contract/model-control.ts: an `llm_request` / `toolConfig` answer
 * as the request's changes (acai's and Gemini CLI's spellings), the text of
 * an `llm_response`, and two hooks' changes merged (a whitelist only narrows,
 * "none" stays none) — every branch, with the zod schemas at the boundary.
 */
import { describe, expect, it } from "vitest";
import {
  dropToolCallsSchema,
  followUpSchema,
  llmRequestSchema,
  llmResponseSchema,
  mergeRequestChanges,
  requestChanges,
  responseText,
  tailCallSchema,
  toolConfigSchema,
} from "../../../source/hooks/contract/model-control.js";

const request = (value: unknown) => llmRequestSchema.parse(value);

describe("requestChanges", () => {
  it("nothing asked: undefined", () => {
    expect(requestChanges(undefined)).toBeUndefined();
    expect(requestChanges(request({}))).toBeUndefined();
  });

  it("Gemini's messages: model is the assistant, system messages become the system prompt", () => {
    const changes = requestChanges(
      request({
        messages: [
          { role: "system", content: "rule one" },
          { role: "user", content: "hi" },
          { role: "model", content: "hello" },
          { role: "system", content: "rule two" },
        ],
      }),
    );
    expect(changes).toEqual({
      messages: [
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ],
      system: "rule one\n\nrule two",
    });
  });

  it("an explicit system prompt wins over system messages; system_prompt is the same field", () => {
    const messages = [
      { role: "system", content: "said" },
      { role: "user", content: "hi" },
    ];
    expect(requestChanges(request({ messages, system: "given" }))?.system).toBe("given");
    expect(requestChanges(request({ system_prompt: "snake" }))).toEqual({ system: "snake" });
  });

  it("sampling parameters in either spelling", () => {
    const camel = requestChanges(
      request({
        config: {
          temperature: 0.2,
          maxOutputTokens: 100,
          topP: 0.9,
          topK: 5,
          presencePenalty: 1,
          frequencyPenalty: -1,
          stopSequences: ["END"],
          seed: 7,
        },
      }),
    );
    const snake = requestChanges(
      request({
        config: {
          temperature: 0.2,
          max_output_tokens: 100,
          top_p: 0.9,
          top_k: 5,
          presence_penalty: 1,
          frequency_penalty: -1,
          stop_sequences: ["END"],
          seed: 7,
        },
      }),
    );
    const params = {
      temperature: 0.2,
      maxOutputTokens: 100,
      topP: 0.9,
      topK: 5,
      presencePenalty: 1,
      frequencyPenalty: -1,
      stopSequences: ["END"],
      seed: 7,
    };
    expect(camel).toEqual({ params });
    expect(snake).toEqual({ params });
    expect(requestChanges(request({ config: {} }))).toBeUndefined();
  });

  it("tool modes: Gemini's AUTO/ANY/NONE, acai's tools and tool_mode, a separate toolConfig", () => {
    const mode = (m: string) => requestChanges(undefined, toolConfigSchema.parse({ mode: m }));
    expect(mode("AUTO")).toEqual({ toolMode: "auto" });
    expect(mode("auto")).toEqual({ toolMode: "auto" });
    expect(mode("ANY")).toEqual({ toolMode: "required" });
    expect(mode("any")).toEqual({ toolMode: "required" });
    expect(mode("required")).toEqual({ toolMode: "required" });
    expect(mode("NONE")).toEqual({ toolMode: "none" });
    expect(mode("none")).toEqual({ toolMode: "none" });
    expect(requestChanges(request({ toolConfig: { allowedFunctionNames: ["Read"] } }))).toEqual({
      tools: ["Read"],
    });
    expect(requestChanges(request({ tools: ["Bash"], tool_mode: "required" }))).toEqual({
      tools: ["Bash"],
      toolMode: "required",
    });
  });

  it("the schemas refuse what is out of bounds", () => {
    expect(llmRequestSchema.safeParse({ messages: [] }).success).toBe(false);
    expect(llmRequestSchema.safeParse({ config: { temperature: 3 } }).success).toBe(false);
    expect(llmRequestSchema.safeParse({ messages: [{ role: "tool", content: "x" }] }).success).toBe(
      false,
    );
    expect(toolConfigSchema.safeParse({ mode: "SOMETIMES" }).success).toBe(false);
    expect(followUpSchema.safeParse({ tool_name: "", tool_input: {} }).success).toBe(false);
    expect(
      followUpSchema.safeParse({ tool_name: "Read", tool_input: { file_path: "a" } }).success,
    ).toBe(true);
    expect(tailCallSchema.safeParse({ name: "Read" }).success).toBe(true);
    expect(dropToolCallsSchema.safeParse(true).success).toBe(true);
    expect(dropToolCallsSchema.safeParse(false).success).toBe(false);
    expect(dropToolCallsSchema.safeParse(["a"]).success).toBe(true);
  });
});

describe("responseText", () => {
  it("acai's text first, else Gemini's first candidate's parts joined, else nothing", () => {
    expect(responseText(undefined)).toBeUndefined();
    expect(responseText(llmResponseSchema.parse({}))).toBeUndefined();
    expect(responseText(llmResponseSchema.parse({ text: "plain" }))).toBe("plain");
    const gemini = llmResponseSchema.parse({
      candidates: [{ content: { parts: ["a", { text: "b" }] } }, { content: { parts: ["z"] } }],
    });
    expect(responseText(gemini)).toBe("ab");
    expect(responseText(llmResponseSchema.parse({ candidates: [] }))).toBeUndefined();
  });
});

describe("mergeRequestChanges", () => {
  it("the first hook's changes stand alone", () => {
    expect(mergeRequestChanges(undefined, { system: "s" })).toEqual({ system: "s" });
  });

  it("the later hook's fields win; params merge; a whitelist only narrows; none stays none", () => {
    const merged = mergeRequestChanges(
      {
        system: "first",
        params: { temperature: 1, seed: 1 },
        tools: ["Bash", "Read"],
        toolMode: "none",
      },
      { system: "second", params: { temperature: 0 }, tools: ["Read", "Edit"], toolMode: "auto" },
    );
    expect(merged).toEqual({
      system: "second",
      params: { temperature: 0, seed: 1 },
      tools: ["Read"],
      toolMode: "none",
    });
    expect(mergeRequestChanges({ tools: ["Bash"] }, { system: "x" })).toEqual({
      tools: ["Bash"],
      system: "x",
    });
  });
});
