/**
 * Shared by the messaging end-to-end tests: a scripted model that answers by
 * model name (each agent runs its own `--model openai:<name>`), and waiting
 * for what a test needs (agents running, requests seen) without timed asserts.
 */
import type { FakeTurn, RecordedRequest } from "../support/fake-openai-server.js";
import type { AcaiProcess } from "../support/run-acai.js";

/** The text of the last user message of a chat completions request. */
export function lastUser(request: RecordedRequest): string {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  if (last === undefined) return "";
  return typeof last.content === "string" ? last.content : JSON.stringify(last.content);
}

export function modelOf(request: RecordedRequest): string {
  return String(request.body?.model ?? "");
}

/** Waits until `check` holds (polling every 50 ms); fails after `timeoutMs` saying what it waited for. */
export async function until(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 120_000,
) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves once a listening agent said on stderr that it listens (it has joined the relay). */
export function listening(p: AcaiProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = "";
    const onData = (chunk: Buffer | string) => {
      text += String(chunk);
      if (text.includes("acai: listening as ")) {
        p.child.stderr?.off("data", onData);
        resolve();
      }
    };
    p.child.stderr?.on("data", onData);
    p.result.then(
      (r) => reject(new Error(`acai exited (${r.exitCode}) before listening: ${r.stderr}`)),
      reject,
    );
  });
}

/** The exchange of the acceptance test: alice writes to bob and to everyone; bob answers alice. */
export function exchangeScript(request: RecordedRequest): FakeTurn {
  const model = modelOf(request);
  const last = lastUser(request);
  if (model === "alice") {
    if (last.includes("Hi alice, bob here")) return { text: "thanks bob" };
    return {
      text: "Writing to the others.\n@relay:bob Hello bob from alice\n@relay:* Status check from alice",
    };
  }
  if (model === "bob" && last.includes("Hello bob from alice"))
    return { text: "@relay:alice Hi alice, bob here" };
  return { text: "ok" };
}

/** Whether some request of `model` ended with a user message containing `text`. */
export function seen(requests: readonly RecordedRequest[], model: string, text: string): boolean {
  return requests.some((r) => modelOf(r) === model && lastUser(r).includes(text));
}
