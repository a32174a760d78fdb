/**
 * A scripted OpenAI-compatible HTTP server for tests.
 *
 * It listens on 127.0.0.1 (a free port) and answers, in order, one scripted
 * `FakeTurn` per model request, on both wire formats the `@ai-sdk/openai`
 * client speaks:
 *
 * - `POST /v1/chat/completions` (used for `--base-url` servers): SSE chunks
 *   with text deltas, `tool_calls` deltas, `finish_reason`, a usage chunk and
 *   `data: [DONE]`; a plain JSON completion when `stream` is not true.
 * - `POST /v1/responses` (api.openai.com): the Responses API event sequence
 *   (`response.created`, `response.output_item.added`,
 *   `response.output_text.delta`, `response.function_call_arguments.delta`/`.done`,
 *   `response.output_item.done`, `response.completed` with usage); a plain JSON
 *   response when `stream` is not true.
 * - `GET /v1/models`: a one-model list.
 *
 * A turn may instead fail with an HTTP `status` (and an OpenAI-style error
 * body, its `code` as given: `context_length_exceeded` for a full context), wait `delayMs` before answering, or stall `hangMs` in the middle of
 * its stream (after the first text chunk or the first tool-call chunk) — for
 * abort tests. A client that disconnects ends the stall at once.
 *
 * When an array script runs out, the server answers with the text
 * `fake-openai: script exhausted` (finish reason stop), so a test that asks
 * more than it scripted sees it plainly. A function script is called for every
 * request (with the request and its 0-based index) and never runs out.
 *
 * Every request is recorded (`requests`), including ones that were answered
 * with an error, so tests can assert what reached the model: tool results,
 * hook context, the system prompt, the tools offered.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { chunksOf, flattenHeaders, onClose, parseBody, sendJson, sleep } from "./http-fixture.js";

interface FakeToolCall {
  name: string;
  input: unknown;
  /** Call id sent to the client (default `call_<request>_<index>`). */
  id?: string;
  /** Raw `arguments` string to send instead of `JSON.stringify(input)` (e.g. broken JSON). */
  rawArguments?: string;
}

export interface FakeTurn {
  text?: string;
  toolCalls?: FakeToolCall[];
  /** Answer with this HTTP status and an OpenAI-style error body instead. */
  status?: number;
  /** Error message for `status` (default derived from the status). */
  errorMessage?: string;
  /** Error `code` for `status` (e.g. `context_length_exceeded`; default derived from the status). */
  errorCode?: string;
  /** With `status`: sends a `retry-after-ms` header (the AI SDK waits that long before retrying). */
  retryAfterMs?: number;
  /** Wait this long before answering (headers included). */
  delayMs?: number;
  /** Stall this long mid-stream (after the first chunk of content). */
  hangMs?: number;
  /** Reported usage (default: input 10, output 5). */
  usage?: { inputTokens: number; outputTokens: number };
  /** Chunk size for text deltas (default 8 characters). */
  chunkSize?: number;
}

type FakeApi = "chat" | "responses" | "models" | "other";

export interface RecordedRequest {
  api: FakeApi;
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when the body was empty or not JSON). */
  body: Record<string, unknown> | undefined;
  /** Raw body text. */
  rawBody: string;
}

export type FakeScript =
  | FakeTurn[]
  | ((request: RecordedRequest, index: number) => FakeTurn | Promise<FakeTurn>);

export interface FakeOpenAIServer {
  /** Base URL, ending with `/v1` (pass it as `baseURL` / `--base-url`). */
  url: string;
  /** Model requests (chat and responses) in arrival order. */
  requests: RecordedRequest[];
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

const EXHAUSTED_TEXT = "fake-openai: script exhausted";

/** The system prompt of a model request (Chat Completions `messages`, Responses `instructions`/`input`). */
export function systemPromptOf(request: RecordedRequest): string {
  const body = request.body ?? {};
  if (typeof body.instructions === "string") return body.instructions;
  const list = Array.isArray(body.messages)
    ? body.messages
    : Array.isArray(body.input)
      ? body.input
      : [];
  const first = list[0] as { role?: unknown; content?: unknown } | undefined;
  if (first?.role !== "system" && first?.role !== "developer") return "";
  return typeof first.content === "string" ? first.content : JSON.stringify(first.content);
}

/**
 * A script for interleaved agents (a session and its subagents): each request
 * goes to the first route whose `system` text its system prompt contains,
 * else to `rest`, and takes that list's next turn, in order.
 */
export function scriptBySystemPrompt(
  routes: readonly { system: string; turns: FakeTurn[] }[],
  rest: FakeTurn[],
): FakeScript {
  const used = new Map<FakeTurn[], number>();
  return (request) => {
    const system = systemPromptOf(request);
    const turns = routes.find((route) => system.includes(route.system))?.turns ?? rest;
    const index = used.get(turns) ?? 0;
    used.set(turns, index + 1);
    return turns[index] ?? { text: EXHAUSTED_TEXT };
  };
}

export async function startFakeOpenAI(script: FakeScript): Promise<FakeOpenAIServer> {
  const requests: RecordedRequest[] = [];
  let modelRequestCount = 0;
  const sockets = new Set<import("node:net").Socket>();

  const nextTurn = async (request: RecordedRequest): Promise<FakeTurn> => {
    const index = modelRequestCount++;
    if (typeof script === "function") return script(request, index);
    return script[index] ?? { text: EXHAUSTED_TEXT };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const path = (req.url ?? "/").split("?")[0] ?? "/";
      const request: RecordedRequest = {
        api: apiOf(req.method ?? "GET", path),
        method: req.method ?? "GET",
        path,
        headers: flattenHeaders(req.headers),
        body: parseBody(rawBody),
        rawBody,
      };
      handle(request, res).catch((error: unknown) => {
        if (!res.headersSent) {
          sendJson(res, 500, errorBody(500, `fake-openai internal error: ${String(error)}`));
        } else {
          res.destroy();
        }
      });
    });
  });

  const handle = async (request: RecordedRequest, res: http.ServerResponse): Promise<void> => {
    if (request.api === "models") {
      sendJson(res, 200, {
        object: "list",
        data: [{ id: "fake-model", object: "model", owned_by: "fake" }],
      });
      return;
    }
    if (request.api === "other") {
      sendJson(
        res,
        404,
        errorBody(404, `fake-openai: no route for ${request.method} ${request.path}`),
      );
      return;
    }
    requests.push(request);
    const turn = await nextTurn(request);
    const closed = onClose(res);
    if (turn.delayMs) await sleep(turn.delayMs, closed.signal);
    if (closed.signal.aborted) return;
    if (turn.status && turn.status >= 400) {
      const headers: Record<string, string> =
        turn.retryAfterMs !== undefined ? { "retry-after-ms": String(turn.retryAfterMs) } : {};
      sendJson(
        res,
        turn.status,
        errorBody(turn.status, turn.errorMessage, turn.errorCode),
        headers,
      );
      return;
    }
    const model = typeof request.body?.model === "string" ? request.body.model : "fake-model";
    const stream = request.body?.stream === true;
    const tag = `${modelRequestCount}`;
    if (request.api === "chat") {
      if (stream) await streamChat(res, turn, model, tag, closed.signal);
      else sendJson(res, 200, chatCompletion(turn, model, tag));
    } else {
      if (stream) await streamResponses(res, turn, model, tag, closed.signal);
      else sendJson(res, 200, responsesObject(turn, model, tag));
    }
  };

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
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function apiOf(method: string, path: string): FakeApi {
  const p = path.replace(/\/+$/, "");
  if (method === "POST" && p.endsWith("/chat/completions")) return "chat";
  if (method === "POST" && p.endsWith("/responses")) return "responses";
  if (method === "GET" && p.endsWith("/models")) return "models";
  return "other";
}

function errorBody(status: number, message?: string, code?: string) {
  const defaults: Record<number, { message: string; type: string; code: string | null }> = {
    400: { message: "Bad request", type: "invalid_request_error", code: null },
    401: {
      message:
        "Incorrect API key provided: sk-fake. You can find your API key at https://platform.openai.com/account/api-keys.",
      type: "invalid_request_error",
      code: "invalid_api_key",
    },
    403: { message: "Forbidden", type: "invalid_request_error", code: null },
    404: {
      message: "The model does not exist",
      type: "invalid_request_error",
      code: "model_not_found",
    },
    429: {
      message: "Rate limit reached for requests",
      type: "requests",
      code: "rate_limit_exceeded",
    },
    500: {
      message: "The server had an error while processing your request.",
      type: "server_error",
      code: null,
    },
  };
  const base = defaults[status] ?? { message: `HTTP ${status}`, type: "server_error", code: null };
  return {
    error: {
      message: message ?? base.message,
      type: base.type,
      param: code === "context_length_exceeded" ? "messages" : null,
      code: code ?? base.code,
    },
  };
}

function usageOf(turn: FakeTurn) {
  const input = turn.usage?.inputTokens ?? 10;
  const output = turn.usage?.outputTokens ?? 5;
  return { input, output, total: input + output };
}

function callId(turn: FakeTurn, tag: string, index: number): string {
  return turn.toolCalls?.[index]?.id ?? `call_${tag}_${index}`;
}

function argumentsOf(call: FakeToolCall): string {
  return call.rawArguments ?? JSON.stringify(call.input ?? {});
}

/** Writes SSE frames; `hang` stalls once, after the first content frame. */
class SseWriter {
  private hung = false;
  constructor(
    private readonly res: http.ServerResponse,
    private readonly turn: FakeTurn,
    private readonly signal: AbortSignal,
  ) {
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    res.flushHeaders();
  }
  get closed(): boolean {
    return this.signal.aborted;
  }
  send(data: unknown, event?: string): void {
    if (this.closed) return;
    const prefix = event ? `event: ${event}\n` : "";
    this.res.write(`${prefix}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
  }
  async content(data: unknown, event?: string): Promise<void> {
    this.send(data, event);
    if (!this.hung && this.turn.hangMs) {
      this.hung = true;
      await sleep(this.turn.hangMs, this.signal);
    }
  }
  /** Stalls now if the turn asked for a stall and none happened yet (content-free turns). */
  async hangIfPending(): Promise<void> {
    if (!this.hung && this.turn.hangMs) {
      this.hung = true;
      await sleep(this.turn.hangMs, this.signal);
    }
  }
  end(): void {
    if (!this.closed) this.res.end();
  }
}

async function streamChat(
  res: http.ServerResponse,
  turn: FakeTurn,
  model: string,
  tag: string,
  signal: AbortSignal,
): Promise<void> {
  const w = new SseWriter(res, turn, signal);
  const id = `chatcmpl-${tag}`;
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  w.send(chunk({ role: "assistant", content: "" }));
  for (const piece of chunksOf(turn.text ?? "", turn.chunkSize ?? 8)) {
    await w.content(chunk({ content: piece }));
  }
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    const args = argumentsOf(call);
    await w.content(
      chunk({
        tool_calls: [
          {
            index,
            id: callId(turn, tag, index),
            type: "function",
            function: { name: call.name, arguments: "" },
          },
        ],
      }),
    );
    for (const piece of chunksOf(args, 16)) {
      w.send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
    }
  }
  await w.hangIfPending();
  const finish = turn.toolCalls?.length ? "tool_calls" : "stop";
  w.send(chunk({}, finish));
  const usage = usageOf(turn);
  w.send({
    id,
    object: "chat.completion.chunk",
    created,
    model,
    choices: [],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.total,
    },
  });
  w.send("[DONE]");
  w.end();
}

function chatCompletion(turn: FakeTurn, model: string, tag: string) {
  const usage = usageOf(turn);
  const toolCalls = (turn.toolCalls ?? []).map((call, index) => ({
    id: callId(turn, tag, index),
    type: "function",
    function: { name: call.name, arguments: argumentsOf(call) },
  }));
  return {
    id: `chatcmpl-${tag}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: turn.text ?? null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        },
        finish_reason: toolCalls.length ? "tool_calls" : "stop",
      },
    ],
    usage: {
      prompt_tokens: usage.input,
      completion_tokens: usage.output,
      total_tokens: usage.total,
    },
  };
}

function responsesUsage(turn: FakeTurn) {
  const usage = usageOf(turn);
  return {
    input_tokens: usage.input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: usage.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: usage.total,
  };
}

function responsesOutput(turn: FakeTurn, tag: string) {
  const output: Record<string, unknown>[] = [];
  if (turn.text) {
    output.push({
      type: "message",
      id: `msg_${tag}`,
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: turn.text, annotations: [] }],
    });
  }
  for (const [index, call] of (turn.toolCalls ?? []).entries()) {
    output.push({
      type: "function_call",
      id: `fc_${tag}_${index}`,
      call_id: callId(turn, tag, index),
      name: call.name,
      arguments: argumentsOf(call),
      status: "completed",
    });
  }
  return output;
}

function responsesObject(turn: FakeTurn, model: string, tag: string) {
  return {
    id: `resp_${tag}`,
    object: "response",
    created_at: Math.floor(Date.now() / 1000),
    status: "completed",
    model,
    output: responsesOutput(turn, tag),
    incomplete_details: null,
    usage: responsesUsage(turn),
  };
}

async function streamResponses(
  res: http.ServerResponse,
  turn: FakeTurn,
  model: string,
  tag: string,
  signal: AbortSignal,
): Promise<void> {
  const w = new SseWriter(res, turn, signal);
  let seq = 0;
  const send = (payload: Record<string, unknown>) => {
    const type = payload.type as string;
    w.send({ ...payload, sequence_number: seq++ }, type);
  };
  const content = async (payload: Record<string, unknown>) => {
    const type = payload.type as string;
    await w.content({ ...payload, sequence_number: seq++ }, type);
  };
  const createdAt = Math.floor(Date.now() / 1000);
  const base = { id: `resp_${tag}`, object: "response", created_at: createdAt, model };
  send({ type: "response.created", response: { ...base, status: "in_progress", output: [] } });
  send({ type: "response.in_progress", response: { ...base, status: "in_progress", output: [] } });

  let outputIndex = 0;
  if (turn.text) {
    const itemId = `msg_${tag}`;
    const index = outputIndex++;
    send({
      type: "response.output_item.added",
      output_index: index,
      item: { type: "message", id: itemId, status: "in_progress", role: "assistant", content: [] },
    });
    send({
      type: "response.content_part.added",
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: "", annotations: [] },
    });
    for (const piece of chunksOf(turn.text, turn.chunkSize ?? 8)) {
      await content({
        type: "response.output_text.delta",
        item_id: itemId,
        output_index: index,
        content_index: 0,
        delta: piece,
        logprobs: [],
      });
    }
    send({
      type: "response.output_text.done",
      item_id: itemId,
      output_index: index,
      content_index: 0,
      text: turn.text,
      logprobs: [],
    });
    send({
      type: "response.content_part.done",
      item_id: itemId,
      output_index: index,
      content_index: 0,
      part: { type: "output_text", text: turn.text, annotations: [] },
    });
    send({
      type: "response.output_item.done",
      output_index: index,
      item: {
        type: "message",
        id: itemId,
        status: "completed",
        role: "assistant",
        content: [{ type: "output_text", text: turn.text, annotations: [] }],
      },
    });
  }
  for (const [i, call] of (turn.toolCalls ?? []).entries()) {
    const index = outputIndex++;
    const itemId = `fc_${tag}_${i}`;
    const item = {
      type: "function_call",
      id: itemId,
      call_id: callId(turn, tag, i),
      name: call.name,
    };
    const args = argumentsOf(call);
    await content({
      type: "response.output_item.added",
      output_index: index,
      item: { ...item, arguments: "", status: "in_progress" },
    });
    for (const piece of chunksOf(args, 16)) {
      send({
        type: "response.function_call_arguments.delta",
        item_id: itemId,
        output_index: index,
        delta: piece,
      });
    }
    send({
      type: "response.function_call_arguments.done",
      item_id: itemId,
      output_index: index,
      arguments: args,
    });
    send({
      type: "response.output_item.done",
      output_index: index,
      item: { ...item, arguments: args, status: "completed" },
    });
  }
  await w.hangIfPending();
  send({
    type: "response.completed",
    response: {
      ...base,
      status: "completed",
      output: responsesOutput(turn, tag),
      incomplete_details: null,
      usage: responsesUsage(turn),
    },
  });
  w.end();
}
