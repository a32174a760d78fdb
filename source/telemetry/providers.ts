/**
 * The OpenTelemetry SDK for one session: a tracer, a meter and a logger
 * provider, each with the exporter its `OTEL_*_EXPORTER` names (OTLP over
 * HTTP as JSON, the console, or none). Loaded only when telemetry is on.
 */
import type { Meter, Tracer } from "@opentelemetry/api";
import type { Logger } from "@opentelemetry/api-logs";
import { OTLPLogExporter } from "@opentelemetry/exporter-logs-otlp-http";
import { OTLPMetricExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import {
  BatchLogRecordProcessor,
  ConsoleLogRecordExporter,
  LoggerProvider,
  type LogRecordProcessor,
} from "@opentelemetry/sdk-logs";
import {
  ConsoleMetricExporter,
  type IMetricReader,
  MeterProvider,
  PeriodicExportingMetricReader,
} from "@opentelemetry/sdk-metrics";
import {
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanProcessor,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import type { SignalTarget, TelemetryConfig } from "./config.js";

export interface Providers {
  tracer: Tracer;
  meter: Meter;
  logger: Logger;
  /** Flushes what is buffered and stops; bounded by the export timeout. */
  shutdown(): Promise<void>;
}

const SCOPE = "acai";

export function startProviders(config: TelemetryConfig, version: string): Providers {
  const resource = resourceFromAttributes({
    "service.name": config.serviceName,
    "service.version": version,
  });
  const exporterOptions = (target: SignalTarget) => ({
    url: target.url,
    headers: config.headers,
    timeoutMillis: config.exportTimeoutMs,
  });
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: spanProcessors(config.traces, exporterOptions),
  });
  const meterProvider = new MeterProvider({
    resource,
    readers: metricReaders(config, exporterOptions),
  });
  const loggerProvider = new LoggerProvider({
    resource,
    processors: logProcessors(config.logs, exporterOptions),
  });
  return {
    tracer: tracerProvider.getTracer(SCOPE, version),
    meter: meterProvider.getMeter(SCOPE, version),
    logger: loggerProvider.getLogger(SCOPE, version),
    async shutdown() {
      await Promise.allSettled([
        tracerProvider.shutdown(),
        meterProvider.shutdown(),
        loggerProvider.shutdown(),
      ]);
    },
  };
}

type ExporterOptions = (target: SignalTarget) => {
  url: string;
  headers: Record<string, string>;
  timeoutMillis: number;
};

function spanProcessors(target: SignalTarget, options: ExporterOptions): SpanProcessor[] {
  switch (target.exporter) {
    case "otlp":
      return [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(options(target)) })];
    case "console":
      return [new BatchSpanProcessor({ exporter: new ConsoleSpanExporter() })];
    case "none":
      return [];
  }
}

function metricReaders(config: TelemetryConfig, options: ExporterOptions): IMetricReader[] {
  const target = config.metrics;
  const interval = { exportIntervalMillis: config.metricIntervalMs };
  switch (target.exporter) {
    case "otlp":
      return [
        new PeriodicExportingMetricReader({
          exporter: new OTLPMetricExporter(options(target)),
          ...interval,
        }),
      ];
    case "console":
      return [
        new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter(), ...interval }),
      ];
    case "none":
      return [];
  }
}

function logProcessors(target: SignalTarget, options: ExporterOptions): LogRecordProcessor[] {
  switch (target.exporter) {
    case "otlp":
      return [new BatchLogRecordProcessor({ exporter: new OTLPLogExporter(options(target)) })];
    case "console":
      return [new BatchLogRecordProcessor({ exporter: new ConsoleLogRecordExporter() })];
    case "none":
      return [];
  }
}
