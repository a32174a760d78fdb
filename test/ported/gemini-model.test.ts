/**
 * Gemini CLI's own BeforeModel / AfterModel / BeforeToolSelection scenarios
 * (integration-tests/hooks-system.test.ts), ported to `acai -p` with the
 * hooks as Gemini's users write them. Asserted on what the scripted model
 * server received and on what `acai -p` printed. SCENARIOS.md maps each one.
 */
import { afterEach, describe, expect, it } from "vitest";
import { geminiGroup, type Ported, ported } from "./ported-support.js";

let p: Ported | undefined;
afterEach(async () => {
  await p?.cleanup();
  p = undefined;
});

const say = (answer: unknown) => `console.log(JSON.stringify(${JSON.stringify(answer)}));`;

describe("Gemini CLI: BeforeModel", () => {
  it("llm_request.messages replace the request: the model answers the hook's prompt, not the user's", async () => {
    p = await ported("gemini-before-model-", [
      { text: "The security hook modified this request successfully." },
    ]);
    const asked =
      "Please respond with exactly: The security hook modified this request successfully.";
    const hook = await p.node(
      "rewrite",
      say({
        decision: "allow",
        hookSpecificOutput: {
          hookEventName: "BeforeModel",
          llm_request: { messages: [{ role: "user", content: asked }] },
        },
      }),
    );
    await p.settings({ hooks: { BeforeModel: [geminiGroup([hook])] } });
    const run = await p.run("Tell me a story");
    expect(run.exitCode, run.stderr).toBe(0);
    expect(p.sent(0)).toContain(asked);
    expect(p.sent(0)).not.toContain("Tell me a story");
    expect(run.stdout.toLowerCase()).toContain("security hook modified");
    const [payload] = await p.payloads("rewrite");
    expect(payload?.hook_event_name).toBeTruthy();
    expect(JSON.stringify(payload?.llm_request)).toContain("Tell me a story");
  });

  for (const decision of ["deny", "block"]) {
    it(`{decision: '${decision}'} blocks the request: no request reaches the model and the reason is shown`, async () => {
      p = await ported(`gemini-model-${decision}-`, [{ text: "should never be sent" }]);
      const hook = await p.node(
        decision,
        say({ decision, reason: "Model execution blocked by security policy" }),
      );
      await p.settings({ hooks: { BeforeModel: [geminiGroup([hook])] } });
      const run = await p.run("Hello");
      expect(`${run.stdout}${run.stderr}`).toContain("Model execution blocked by security policy");
      expect(p.server.requests).toHaveLength(0);
      expect(run.stdout).not.toContain("should never be sent");
    });
  }
});

describe("Gemini CLI: AfterModel", () => {
  it("llm_response replaces the response text `acai -p` reports (json result; streamed text stays as streamed)", async () => {
    p = await ported("gemini-after-model-", [{ text: "The original secret answer." }]);
    const hook = await p.node(
      "filter",
      say({
        hookSpecificOutput: {
          hookEventName: "AfterModel",
          llm_response: {
            candidates: [
              {
                content: {
                  role: "model",
                  parts: ["[FILTERED] Response has been filtered for security compliance."],
                },
                finishReason: "STOP",
              },
            ],
          },
        },
      }),
    );
    await p.settings({ hooks: { AfterModel: [{ hooks: [{ type: "command", command: hook }] }] } });
    const run = await p.run("Tell me a secret", { extra: ["--output-format", "json"] });
    expect(run.exitCode, run.stderr).toBe(0);
    const result = (JSON.parse(run.stdout) as { result: string }).result;
    expect(result).toBe("[FILTERED] Response has been filtered for security compliance.");
    const [payload] = await p.payloads("filter");
    expect(JSON.stringify(payload?.llm_response)).toContain("The original secret answer.");
  });
});

describe("Gemini CLI: BeforeToolSelection", () => {
  it("toolConfig {mode: 'ANY', allowedFunctionNames: ['read_file']} offers only Read, and a tool must be called", async () => {
    p = await ported("gemini-tool-selection-", [
      { toolCalls: [{ name: "Read", input: { file_path: "new_file_data.txt" } }] },
      { text: "checked" },
    ]);
    // Only the first request: with "ANY" on every request the model could never answer in text.
    const hook = await p.node(
      "select",
      "if (payload.step === 1) " +
        say({
          decision: "allow",
          hookSpecificOutput: {
            hookEventName: "BeforeToolSelection",
            toolConfig: { mode: "ANY", allowedFunctionNames: ["read_file"] },
          },
        }),
    );
    await p.settings({
      hooks: { BeforeToolSelection: [{ hooks: [{ type: "command", command: hook }] }] },
    });
    const run = await p.run("Check the content of new_file_data.txt");
    expect(run.exitCode, run.stderr).toBe(0);
    const body = p.server.requests[0]?.body ?? {};
    const offered = (body.tools as Array<{ function: { name: string } }>).map(
      (t) => t.function.name,
    );
    expect(offered).toEqual(["Read"]);
    expect(body.tool_choice).toBe("required");
    const second = p.server.requests[1]?.body ?? {};
    expect((second.tools as unknown[]).length).toBeGreaterThan(1);
    expect(await p.payloads("select")).toHaveLength(2);
  });
});
