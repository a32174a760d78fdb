/**
 * Telemetry for one session (docs/telemetry.md): the SDK's providers, the
 * spans and metrics taken from the stream of events the consumer sees, and
 * the audit log's lines as log records. `startTelemetry` is imported only
 * when telemetry is on (session/telemetry.ts), so a session without it loads
 * none of the SDK.
 */
import type { InterceptedEvent } from "../hooks/run/activity.js";
import type { AuditSink } from "../hooks/run/audit.js";
import type { ModelPrice } from "../models/pricing.js";
import { teeAuditSink } from "./audit-logs.js";
import type { TelemetryConfig } from "./config.js";
import { SessionMetrics } from "./metrics.js";
import { startProviders } from "./providers.js";
import { SessionSpans } from "./spans.js";

export interface SessionTelemetry {
  /** The stream, unchanged, with every event seen by the spans and metrics; ends them when it ends. */
  observe<T extends InterceptedEvent>(
    events: AsyncGenerator<T, void, undefined>,
  ): AsyncGenerator<T, void, undefined>;
  /** The audit sink to give the interceptor: `inner` (the file) and the log records. */
  auditSink(inner: AuditSink): AuditSink;
  /** Exports what is buffered; never longer than the export timeout. */
  shutdown(): Promise<void>;
}

export function startTelemetry(options: {
  config: TelemetryConfig;
  version: string;
  price: ModelPrice | undefined;
}): SessionTelemetry {
  const { config } = options;
  const providers = startProviders(config, options.version);
  const spans = new SessionSpans({ tracer: providers.tracer, content: config.content });
  const metrics = new SessionMetrics(providers.meter, options.price);
  return {
    async *observe(events) {
      try {
        for await (const event of events) {
          spans.observe(event);
          metrics.observe(event);
          yield event;
        }
      } finally {
        spans.end();
      }
    },
    auditSink: (inner) =>
      teeAuditSink({
        inner,
        logger: providers.logger,
        toolDetails: config.content.toolDetails,
        onEntry: (entry) => spans.audit(entry),
      }),
    shutdown: () => withTimeout(providers.shutdown(), config.exportTimeoutMs),
  };
}

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
