/**
 * A local Anthropic Messages API for benchmarks (127.0.0.1, a free port): a
 * session asks for `toolCalls` Bash calls, one per response, then ends with a
 * text. Which call comes next is read from the request itself (the number of
 * tool results in it), so the server holds no state between sessions and
 * answers any side request (a title, a quota check: no tools, or
 * `count_tokens`) with a short text. Streams SSE when asked (`"stream": true`),
 * as the real API does; JSON otherwise. A client whose base URL ends in
 * `/alternate` (`alternateUrl`) is asked for `command` and `:` in turn
 * (`command` first): the paired measurement's two kinds of turn in one session.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

interface Message {
  role: string;
  content: string | { type: string }[];
}

function toolResults(messages: Message[]): number {
  let count = 0;
  for (const m of messages) {
    if (typeof m.content === "string") continue;
    for (const part of m.content) if (part.type === "tool_result") count++;
  }
  return count;
}

type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: unknown };

function answer(
  body: { messages?: Message[]; tools?: { name: string }[] },
  toolCalls: number,
  command: string,
  alternate: boolean,
): Block[] {
  const hasBash = body.tools?.some((t) => t.name === "Bash") ?? false;
  const done = toolResults(body.messages ?? []);
  if (!hasBash || done >= toolCalls) return [{ type: "text", text: "Done." }];
  return [
    {
      type: "tool_use",
      id: `toolu_bench_${done + 1}`,
      name: "Bash",
      input: { command: alternate && done % 2 === 1 ? ":" : command, description: "bench" },
    },
  ];
}

function sse(res: http.ServerResponse, model: string, blocks: Block[]): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: unknown) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const usage = { input_tokens: 10, output_tokens: 0 };
  send("message_start", {
    type: "message_start",
    message: {
      id: "msg_bench",
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      usage,
    },
  });
  for (const [index, block] of blocks.entries()) {
    if (block.type === "text") {
      send("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      send("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: block.text },
      });
    } else {
      send("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { ...block, input: {} },
      });
      const partial_json = JSON.stringify(block.input);
      send("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json },
      });
    }
    send("content_block_stop", { type: "content_block_stop", index });
  }
  const stop_reason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
  send("message_delta", {
    type: "message_delta",
    delta: { stop_reason, stop_sequence: null },
    usage: { output_tokens: 5 },
  });
  send("message_stop", { type: "message_stop" });
  res.end();
}

export interface FakeAnthropic {
  /** For ANTHROPIC_BASE_URL (no `/v1`: clients add it). */
  url: string;
  /** The same server, asking for `command` and `:` in turn (request k after k tool results: `:` when k is odd). */
  alternateUrl: string;
  /** Requests seen to /v1/messages. */
  requests: () => number;
  /** When each request offering the Bash tool arrived (performance.now()) since the last call; clears them. */
  takeTurnTimes: () => number[];
  close: () => void;
}

export async function startFakeAnthropic(
  toolCalls: number,
  command: string,
): Promise<FakeAnthropic> {
  let requests = 0;
  let turnTimes: number[] = [];
  const server = http.createServer((req, res) => {
    const arrived = performance.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = req.url ?? "";
      let body: {
        model?: string;
        stream?: boolean;
        messages?: Message[];
        tools?: { name: string }[];
      } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}");
      } catch {
        // not JSON: answered like a side request
      }
      if (url.includes("count_tokens")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      if (req.method !== "POST" || !url.includes("/messages")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ type: "error", error: { type: "not_found_error", message: url } }),
        );
        return;
      }
      requests++;
      if (body.tools?.some((t) => t.name === "Bash")) turnTimes.push(arrived);
      const blocks = answer(body, toolCalls, command, url.startsWith("/alternate/"));
      const model = body.model ?? "claude-bench";
      if (body.stream) return sse(res, model, blocks);
      res.writeHead(200, { "content-type": "application/json" });
      const stop_reason = blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
      res.end(
        JSON.stringify({
          id: "msg_bench",
          type: "message",
          role: "assistant",
          model,
          content: blocks,
          stop_reason,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 5 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    alternateUrl: `http://127.0.0.1:${port}/alternate`,
    requests: () => requests,
    takeTurnTimes: () => {
      const times = turnTimes;
      turnTimes = [];
      return times;
    },
    close: () => server.close(),
  };
}
