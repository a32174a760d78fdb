/**
 * The floor of `acai -p`'s start-up (bench/startup.ts): a program that does
 * only what acai's first request needs from its kept libraries — the AI SDK's
 * `streamText` through `@ai-sdk/openai`'s chat model, against the server at
 * OPENAI_BASE_URL — and reads the answer to its end. Bundled into one file by
 * bench/support/ai-sdk-floor.ts; never run from here. It sends the request as
 * acai does, over Node's `http` with acai's model fetch and, in the bundle,
 * acai's `Headers` (decision 0067), so undici is no more part of the floor
 * than of acai.
 */
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { createModelFetch } from "../../source/models/http/model-fetch.ts";

const openai = createOpenAI({
  baseURL: process.env.OPENAI_BASE_URL,
  apiKey: process.env.OPENAI_API_KEY,
  fetch: createModelFetch({ env: process.env }),
});
const result = streamText({ model: openai.chat("bench"), prompt: "hi" });
for await (const _part of result.textStream) {
  // read to the end, as acai does
}
