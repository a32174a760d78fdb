/**
 * A test OTLP/HTTP collector on 127.0.0.1: it keeps every JSON body posted to
 * /v1/traces, /v1/metrics and /v1/logs, and answers 200 as a collector does.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface OtlpReceiver {
  endpoint: string;
  bodies: { traces: unknown[]; metrics: unknown[]; logs: unknown[] };
  /** Every body as received, for "this text never left the machine". */
  raw: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const bodies = { traces: [] as unknown[], metrics: [] as unknown[], logs: [] as unknown[] };
  const raw: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      raw.push(text);
      const signal = req.url?.replace(/^\/v1\//, "") as keyof typeof bodies;
      if (signal in bodies) bodies[signal].push(JSON.parse(text));
      res.writeHead(200, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bodies,
    raw,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ReceivedSpan {
  name: string;
  spanId: string;
  parentSpanId?: string;
  traceId: string;
  attributes: Record<string, unknown>;
}

/** The spans of every traces body, their attributes as a plain object. */
export function receivedSpans(bodies: unknown[]): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const body of bodies as OtlpTraces[]) {
    for (const resource of body.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          spans.push({
            name: span.name,
            spanId: span.spanId,
            traceId: span.traceId,
            ...(span.parentSpanId ? { parentSpanId: span.parentSpanId } : {}),
            attributes: plainAttributes(span.attributes ?? []),
          });
        }
      }
    }
  }
  return spans;
}

/** The names of the metrics in every metrics body. */
export function receivedMetricNames(bodies: unknown[]): Set<string> {
  const names = new Set<string>();
  for (const body of bodies as OtlpMetrics[]) {
    for (const resource of body.resourceMetrics ?? []) {
      for (const scope of resource.scopeMetrics ?? []) {
        for (const metric of scope.metrics ?? []) names.add(metric.name);
      }
    }
  }
  return names;
}

/** The log records of every logs body, their attributes as a plain object. */
export function receivedLogRecords(bodies: unknown[]): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const body of bodies as OtlpLogs[]) {
    for (const resource of body.resourceLogs ?? []) {
      for (const scope of resource.scopeLogs ?? []) {
        for (const record of scope.logRecords ?? []) {
          records.push(plainAttributes(record.attributes ?? []));
        }
      }
    }
  }
  return records;
}

interface KeyValue {
  key: string;
  value: Record<string, unknown>;
}
interface OtlpTraces {
  resourceSpans?: {
    scopeSpans?: {
      spans?: {
        name: string;
        spanId: string;
        traceId: string;
        parentSpanId?: string;
        attributes?: KeyValue[];
      }[];
    }[];
  }[];
}
interface OtlpMetrics {
  resourceMetrics?: { scopeMetrics?: { metrics?: { name: string }[] }[] }[];
}
interface OtlpLogs {
  resourceLogs?: { scopeLogs?: { logRecords?: { attributes?: KeyValue[] }[] }[] }[];
}

function plainAttributes(list: KeyValue[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const { key, value } of list) out[key] = Object.values(value)[0];
  return out;
}
