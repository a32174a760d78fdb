/**
 * The answer `model-fetch.ts` gives for a request it sent over `node:http`:
 * the part of the Fetch standard's `Response` the AI SDK reads (status, ok,
 * headers, a web `ReadableStream` body, `text`/`json`/`arrayBuffer`) over
 * Node's `IncomingMessage`, without undici (decision 0067).
 */
import type { IncomingMessage } from "node:http";
import type { Readable } from "node:stream";
import { PlainHeaders } from "./headers.js";

/** Statuses whose response has no body (the Fetch standard's "null body status"). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

export class PlainResponse {
  readonly type = "basic";
  readonly redirected = false;
  readonly bodyUsed = false;
  readonly body: ReadableStream<Uint8Array> | null;

  constructor(
    readonly url: string,
    readonly status: number,
    readonly statusText: string,
    readonly headers: PlainHeaders,
    body: ReadableStream<Uint8Array> | null,
  ) {
    this.body = NULL_BODY.has(status) ? null : body;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (!this.body) return new Uint8Array(0);
    const chunks: Uint8Array[] = [];
    const reader = this.body.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      chunks.push(read.value);
    return Buffer.concat(chunks);
  }

  async text(): Promise<string> {
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }
}

/** A response's headers as `fetch` gives them (repeated names joined). */
export function responseHeaders(message: IncomingMessage): PlainHeaders {
  const headers = new PlainHeaders();
  const raw = message.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i] as string, raw[i + 1] as string);
    } catch {
      // Node's parser let it through and fetch's would drop it: a header no caller reads.
    }
  }
  return headers;
}

/**
 * `source` (the message, or its decoder) as a web stream: read as it is
 * pulled, paused while the reader is behind, and closed, errored or
 * destroyed with it. A stream that ends before the message did errors with
 * `terminated` (what `fetch` says when the connection drops mid-body).
 */
export function webBody(
  source: Readable,
  failure: (error: unknown) => unknown,
): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on("data", (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(chunk);
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once("end", () => {
          done = true;
          controller.close();
        });
        source.on("error", (error) => {
          if (done) return;
          done = true;
          controller.error(failure(error));
        });
        source.once("close", () => {
          if (done) return;
          done = true;
          controller.error(failure(new Error("the connection closed before the response's end")));
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        done = true;
        source.destroy();
      },
    },
    { highWaterMark: 16 },
  );
}
