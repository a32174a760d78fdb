/**
 * A scripted Anthropic Messages API server for tests, beside
 * fake-openai-server.ts.
 *
 * It listens on 127.0.0.1 (a free port) and answers, in order, one scripted
 * `FakeAnthropicTurn` per `POST /v1/messages`:
 *
 * - with `"stream": true` (what `@ai-sdk/anthropic` sends for `streamText`):
 *   SSE events as the real API sends them — `message_start` (input usage),
 *   `ping`, then per content block `content_block_start` /
 *   `content_block_delta` (`text_delta`, or `input_json_delta` for a
 *   `tool_use` block) / `content_block_stop`, then `message_delta` (stop
 *   reason, output usage) and `message_stop`;
 * - otherwise one JSON `message` object.
 *
 * A turn may instead fail with an HTTP `status` and an Anthropic error body
 * (`{"type":"error","error":{"type":"authentication_error","message":…}}`),
 * or send an `event: error` in its stream (`streamError`, e.g.
 * `overloaded_error`: what the API does when it fails after answering 200),
 * as the first event (the SDK turns it into a retryable API error) or after
 * `message_start` (a stream error the caller sees);
 * wait `delayMs` before answering, or stall `hangMs` after its first content
 * event. A client that disconnects ends the stall at once.
 *
 * When an array script runs out, the server answers the text
 * `fake-anthropic: script exhausted`. A function script is called for every
 * request (with the request and its 0-based index) and never runs out.
 *
 * Every `/messages` request is recorded (`requests`), including ones answered
 * with an error: headers (`x-api-key`, `anthropic-version`) and body
 * (`model`, `system`, `messages`, `tools`, `max_tokens`, `stream`).
 */
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import {
  chunksOf,
  flattenHeaders,
  onClose,
  parseBody,
  sendJson as sendJsonWith,
  sleep,
} from "./http-fixture.js";

interface FakeAnthropicToolCall {
  name: string;
  input: unknown;
  /** The `tool_use` id (default `toolu_<request>_<index>`). */
  id?: string;
  /** Raw `partial_json` text to stream instead of `JSON.stringify(input)` (e.g. broken JSON). */
  rawInput?: string;
}

export interface FakeAnthropicTurn {
  text?: string;
  toolCalls?: FakeAnthropicToolCall[];
  /** Answer with this HTTP status and an Anthropic error body instead. */
  status?: number;
  /** Error `type` for `status` (default derived from the status, e.g. 529 → `overloaded_error`). */
  errorType?: string;
  /** Error message for `status` or `streamError` (default derived from the type). */
  errorMessage?: string;
  /** With `status` or `streamError`: a `retry-after-ms` header (the AI SDK waits that long before retrying). */
  retryAfterMs?: number;
  /** Answer 200, then send `event: error` of this type and end the stream. */
  streamError?: string;
  /** Where `streamError` comes: as the first event (default) or after `message_start`. */
  streamErrorAt?: "first" | "after_message_start";
  /** `stop_reason` (default `tool_use` with tool calls, else `end_turn`). */
  stopReason?: string;
  /** Wait this long before answering (headers included). */
  delayMs?: number;
  /** Stall this long after the first content event. */
  hangMs?: number;
  /** Reported usage (default: input 12, output 7). */
  usage?: { inputTokens: number; outputTokens: number };
  /** Characters per `text_delta` (default 8). */
  chunkSize?: number;
}

interface RecordedAnthropicRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when empty or not a JSON object). */
  body: Record<string, unknown> | undefined;
  rawBody: string;
}

export type FakeAnthropicScript =
  | FakeAnthropicTurn[]
  | ((
      request: RecordedAnthropicRequest,
      index: number,
    ) => FakeAnthropicTurn | Promise<FakeAnthropicTurn>);

export interface FakeAnthropicServer {
  /** The server's origin, no path (as `ANTHROPIC_BASE_URL`: acai appends `/v1`). */
  url: string;
  /** `/messages` requests in arrival order. */
  requests: RecordedAnthropicRequest[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const EXHAUSTED_TEXT = "fake-anthropic: script exhausted";

const ERROR_DEFAULTS: Readonly<Record<number, { type: string; message: string }>> = {
  400: { type: "invalid_request_error", message: "Invalid request" },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: { type: "permission_error", message: "Your API key does not have permission to use this" },
  404: { type: "not_found_error", message: "model: claude-missing" },
  413: { type: "request_too_large", message: "Request exceeds the maximum allowed size" },
  429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your limit" },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

const STATUS_OF_TYPE: Readonly<Record<string, number>> = Object.fromEntries(
  Object.entries(ERROR_DEFAULTS).map(([status, { type }]) => [type, Number(status)]),
);

export async function startFakeAnthropic(
  script: FakeAnthropicScript,
): Promise<FakeAnthropicServer> {
  const requests: RecordedAnthropicRequest[] = [];
  let count = 0;
  const sockets = new Set<Socket>();

  const nextTurn = async (request: RecordedAnthropicRequest): Promise<FakeAnthropicTurn> => {
    const index = count++;
    if (typeof script === "function") return script(request, index);
    return script[index] ?? { text: EXHAUSTED_TEXT };
  };

  const handle = async (
    request: RecordedAnthropicRequest,
    res: http.ServerResponse,
  ): Promise<void> => {
    if (request.method !== "POST" || !/\/v1\/messages\/?$/.test(request.path)) {
      const body = errorBody(
        "not_found_error",
        `fake-anthropic: no route for ${request.method} ${request.path}`,
      );
      sendJson(res, 404, body);
      return;
    }
    requests.push(request);
    const turn = await nextTurn(request);
    const closed = onClose(res);
    if (turn.delayMs) await sleep(turn.delayMs, closed.signal);
    if (closed.signal.aborted) return;
    if (turn.status && turn.status >= 400) {
      const defaults = ERROR_DEFAULTS[turn.status];
      const type = turn.errorType ?? defaults?.type ?? "api_error";
      const message = turn.errorMessage ?? defaults?.message ?? `HTTP ${turn.status}`;
      const headers: Record<string, string> =
        turn.retryAfterMs !== undefined ? { "retry-after-ms": String(turn.retryAfterMs) } : {};
      sendJson(res, turn.status, errorBody(type, message), headers);
      return;
    }
    const model = typeof request.body?.model === "string" ? request.body.model : "claude-fake";
    const tag = String(count);
    if (request.body?.stream === true) await streamMessage(res, turn, model, tag, closed.signal);
    else sendJson(res, 200, messageObject(turn, model, tag));
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const request: RecordedAnthropicRequest = {
        method: req.method ?? "GET",
        path: (req.url ?? "/").split("?")[0] ?? "/",
        headers: flattenHeaders(req.headers),
        body: parseBody(rawBody),
        rawBody,
      };
      handle(request, res).catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else
          sendJson(
            res,
            500,
            errorBody("api_error", `fake-anthropic internal error: ${String(error)}`),
          );
      });
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Text of every `tool_result` block the client sent, with the `tool_use_id` it answers. */
export function toolResultsOf(
  body: Record<string, unknown> | undefined,
): Array<{ toolUseId: string; text: string; isError: boolean }> {
  const out: Array<{ toolUseId: string; text: string; isError: boolean }> = [];
  const messages = Array.isArray(body?.messages) ? body.messages : [];
  for (const message of messages as Array<{ role?: unknown; content?: unknown }>) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const block of message.content as Array<Record<string, unknown>>) {
      if (block.type !== "tool_result") continue;
      const content = block.content;
      const text =
        typeof content === "string"
          ? content
          : Array.isArray(content)
            ? (content as Array<{ text?: unknown }>)
                .map((part) => (typeof part.text === "string" ? part.text : ""))
                .join("")
            : "";
      out.push({ toolUseId: String(block.tool_use_id), text, isError: block.is_error === true });
    }
  }
  return out;
}

function errorBody(type: string, message: string) {
  return { type: "error", error: { type, message } };
}

/** Anthropic's answers carry a request id. */
function sendJson(
  res: http.ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  sendJsonWith(res, status, body, { "request-id": `req_fake_${status}`, ...headers });
}

function usageOf(turn: FakeAnthropicTurn) {
  return { input: turn.usage?.inputTokens ?? 12, output: turn.usage?.outputTokens ?? 7 };
}

function toolUseId(call: FakeAnthropicToolCall, tag: string, index: number): string {
  return call.id ?? `toolu_${tag}_${index}`;
}

function stopReason(turn: FakeAnthropicTurn): string {
  return turn.stopReason ?? (turn.toolCalls?.length ? "tool_use" : "end_turn");
}

function messageObject(turn: FakeAnthropicTurn, model: string, tag: string) {
  const content: Record<string, unknown>[] = [];
  if (turn.text) content.push({ type: "text", text: turn.text });
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    content.push({
      type: "tool_use",
      id: toolUseId(call, tag, index),
      name: call.name,
      input: call.input ?? {},
    });
  }
  const usage = usageOf(turn);
  return {
    id: `msg_fake_${tag}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stopReason(turn),
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

async function streamMessage(
  res: http.ServerResponse,
  turn: FakeAnthropicTurn,
  model: string,
  tag: string,
  signal: AbortSignal,
): Promise<void> {
  res.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": `req_fake_${tag}`,
    ...(turn.streamError && turn.retryAfterMs !== undefined
      ? { "retry-after-ms": String(turn.retryAfterMs) }
      : {}),
  });
  res.flushHeaders();
  let hung = false;
  const send = (data: { type: string } & Record<string, unknown>): void => {
    if (!signal.aborted) res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const content = async (data: { type: string } & Record<string, unknown>): Promise<void> => {
    send(data);
    if (!hung && turn.hangMs) {
      hung = true;
      await sleep(turn.hangMs, signal);
    }
  };
  const streamError = (): void => {
    const status = turn.streamError ? STATUS_OF_TYPE[turn.streamError] : undefined;
    const message =
      turn.errorMessage ?? (status ? ERROR_DEFAULTS[status]?.message : undefined) ?? "Error";
    send({ type: "error", error: { type: turn.streamError, message } });
    if (!signal.aborted) res.end();
  };
  if (turn.streamError && turn.streamErrorAt !== "after_message_start") return streamError();
  const usage = usageOf(turn);
  send({
    type: "message_start",
    message: {
      id: `msg_fake_${tag}`,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: usage.input, output_tokens: 1 },
    },
  });
  send({ type: "ping" });
  if (turn.streamError) return streamError();

  let index = 0;
  if (turn.text) {
    send({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
    for (const piece of chunksOf(turn.text, turn.chunkSize ?? 8)) {
      await content({
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: piece },
      });
    }
    send({ type: "content_block_stop", index });
    index++;
  }
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    await content({
      type: "content_block_start",
      index,
      content_block: { type: "tool_use", id: toolUseId(call, tag, i), name: call.name, input: {} },
    });
    const json = call.rawInput ?? JSON.stringify(call.input ?? {});
    for (const piece of chunksOf(json, 16)) {
      send({
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      });
    }
    send({ type: "content_block_stop", index });
    index++;
  }
  if (!hung && turn.hangMs) await sleep(turn.hangMs, signal);
  send({
    type: "message_delta",
    delta: { stop_reason: stopReason(turn), stop_sequence: null },
    usage: { output_tokens: usage.output },
  });
  send({ type: "message_stop" });
  if (!signal.aborted) res.end();
}
