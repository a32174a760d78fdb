import { execFileSync } from "node:child_process";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { pathToFileURL } from "node:url";
import type { LanguageModel } from "ai";
import { describe, expect, test } from "vitest";
import { createOpenAiModel } from "../../source/models/openai.js";
import { providerAhead } from "../../source/session/provider-ahead.js";

const BUILT = path.resolve(import.meta.dirname, "../../dist/session/provider-ahead.js");

/** A model whose supportedUrls reads are counted, answering `answer()` each time. */
function countedModel(answer: () => unknown): { model: LanguageModel; reads: () => number } {
  let reads = 0;
  const model = {
    specificationVersion: "v4",
    provider: "test",
    modelId: "test",
    get supportedUrls() {
      reads++;
      return answer();
    },
    doGenerate: () => Promise.reject(new Error("not used")),
    doStream: () => Promise.reject(new Error("not used")),
  } as unknown as LanguageModel;
  return { model, reads: () => reads };
}

describe("providerAhead", () => {
  test("the first hook's start reads the model's supportedUrls once, on the next turn of the loop", async () => {
    const { model, reads } = countedModel(() => Promise.resolve({}));
    const hookStarting = providerAhead(model);
    hookStarting();
    hookStarting();
    expect(reads()).toBe(0); // the hook's own start goes first
    await nextTurn();
    expect(reads()).toBe(1);
    hookStarting();
    await nextTurn();
    expect(reads()).toBe(1);
  });

  test("the web streams warm once, on the turn after the load starts", async () => {
    const { model, reads } = countedModel(() => Promise.resolve({}));
    const order: string[] = [];
    const hookStarting = providerAhead(model, () => order.push(`warm after ${reads()} read`));
    hookStarting();
    await nextTurn();
    expect(order).toEqual([]); // the provider's load goes first, on a turn of its own
    await nextTurn();
    hookStarting();
    await nextTurn();
    await nextTurn();
    expect(order).toEqual(["warm after 1 read"]);
  });

  test("a model given as a string still warms the web streams", async () => {
    let warmed = 0;
    providerAhead("openai/gpt-5" as LanguageModel, () => warmed++)();
    await nextTurn();
    await nextTurn();
    expect(warmed).toBe(1);
  });

  test("the first hook's start loads Node's web streams in a process that had not loaded them", () => {
    // A fresh Node (vitest's own process has them loaded): the built module, nothing else imported.
    const script = `const loaded = () => process.moduleLoadList.filter((m) => m.includes("webstreams/transformstream")).length;
const turn = () => new Promise((r) => setImmediate(r));
const before = loaded();
const { providerAhead } = await import(${JSON.stringify(pathToFileURL(BUILT).href)});
const hookStarting = providerAhead({ specificationVersion: "v4", provider: "test", modelId: "test" });
const imported = loaded();
hookStarting();
await turn();
await turn();
await turn();
console.log(JSON.stringify([before, imported, loaded()]));`;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      env: {},
    });
    expect(JSON.parse(out)).toEqual([0, 0, 1]);
  });

  test("a load that fails is nobody's error until the request: no rejection left unhandled, no throw", async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on("unhandledRejection", onUnhandled);
    try {
      const rejecting = countedModel(() => Promise.reject(new Error("cannot load the provider")));
      const throwing = countedModel(() => {
        throw new Error("cannot read");
      });
      providerAhead(rejecting.model)();
      providerAhead(throwing.model)();
      await nextTurn();
      await nextTurn();
      expect([rejecting.reads(), throwing.reads()]).toEqual([1, 1]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", onUnhandled);
    }
  });

  test("an OpenAI model is named before its package loads, and its supportedUrls are the provider's", async () => {
    const options = { modelId: "m1", apiKey: "sk-x", baseUrl: undefined, env: {} };
    const chat = createOpenAiModel({ ...options, api: "chat" });
    const responses = createOpenAiModel({ ...options, api: "responses" });
    expect([chat.provider, chat.modelId]).toEqual(["openai.chat", "m1"]);
    expect([responses.provider, responses.modelId]).toEqual(["openai.responses", "m1"]);
    expect(await chat.supportedUrls).toEqual({ "image/*": [/^https?:\/\/.*$/] });
    expect(Object.keys(await responses.supportedUrls)).toContain("image/*");
  });
});
