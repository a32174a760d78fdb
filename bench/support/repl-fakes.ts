/**
 * What bench/repl.ts streams through the real <App>: a TTY-like sink and
 * stdin (ink renders in interactive mode; output is counted and dropped),
 * and a fake session that streams `tokens` text deltas.
 */
import { Writable } from "node:stream";
import type { RunInput } from "../../dist/agent/types.js";
import type { InterceptedEvent } from "../../dist/hooks/run/activity.js";
import type { PreparedSession } from "../../dist/session/types.js";

export { FakeStdin } from "../../test/support/fake-stdin.ts";

/** A TTY-like sink: ink renders in interactive mode, output is counted and dropped. */
export class FakeTty extends Writable {
  isTTY = true;
  columns = 100;
  rows = 30;
  bytes = 0;
  onChunk: ((chunk: string) => void) | undefined;
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: () => void): void {
    const text = chunk.toString();
    this.bytes += text.length;
    this.onChunk?.(text);
    done();
  }
}

export function streamingSession(tokens: number, onDone: () => void): PreparedSession {
  return {
    sessionId: "bench",
    modelId: "bench-model",
    projectDir: "/tmp",
    settings: {},
    cwd: "/",
    acaiHome: "/",
    transcriptPath: "/t",
    permissionMode: "default",
    hooks: { loaded: [], broken: [], projectHooksEnabled: true },
    warnings: [],
    async notify() {
      return [];
    },
    async *run(input: RunInput): AsyncGenerator<InterceptedEvent, void, undefined> {
      for await (const turn of input.prompts) {
        yield { type: "user_prompt", turn: 1, prompt: turn.prompt };
        for (let i = 0; i < tokens; i++) {
          yield {
            type: "text_delta",
            turn: 1,
            step: 1,
            text: i % 12 === 11 ? "token\n" : "token ",
          };
          // Tokens arrive from the network: let the event loop (timers, input) run between them.
          await new Promise((r) => setImmediate(r));
        }
        const usage = { inputTokens: 10, outputTokens: tokens, totalTokens: tokens + 10 };
        yield { type: "turn_end", turn: 1, stopReason: "end_turn", text: "", usage };
        onDone();
      }
    },
  };
}
