/**
 * Whether a session exports telemetry, and where to (docs/telemetry.md).
 * Off unless `ACAI_ENABLE_TELEMETRY` is `1` or `true` in the session's
 * environment (the shell's, or the user's settings `env`: a project's
 * settings may set neither this nor any `OTEL_*` name, session/settings-env.ts).
 * The standard `OTEL_*` variables choose the exporters and the endpoint, as
 * Claude Code reads them. Pure: the environment in, a config and warnings out.
 */

type ExporterKind = "otlp" | "console" | "none";

export interface SignalTarget {
  exporter: ExporterKind;
  /** The OTLP/HTTP URL of this signal (`…/v1/traces`). */
  url: string;
}

export interface TelemetryConfig {
  traces: SignalTarget;
  metrics: SignalTarget;
  logs: SignalTarget;
  headers: Record<string, string>;
  metricIntervalMs: number;
  exportTimeoutMs: number;
  serviceName: string;
  /** What may leave the machine beside names, counts and times; all off by default. */
  content: { prompts: boolean; toolDetails: boolean };
}

export interface TelemetrySetup {
  config: TelemetryConfig | undefined;
  warnings: string[];
}

type Env = Readonly<Record<string, string | undefined>>;

const DEFAULT_ENDPOINT = "http://localhost:4318";
const SIGNALS = ["traces", "metrics", "logs"] as const;
type Signal = (typeof SIGNALS)[number];

export function telemetrySetup(env: Env): TelemetrySetup {
  if (!isOn(env.ACAI_ENABLE_TELEMETRY)) return { config: undefined, warnings: [] };
  const warnings: string[] = [];
  const protocol = env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim();
  if (protocol && protocol !== "http/json") {
    warnings.push(
      `OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported; acai exports OTLP over HTTP as JSON (http/json). Unset it or set it to http/json.`,
    );
  }
  const target = (signal: Signal): SignalTarget => ({
    exporter: exporterOf(env, signal, warnings),
    url: signalUrl(env, signal),
  });
  const config: TelemetryConfig = {
    traces: target("traces"),
    metrics: target("metrics"),
    logs: target("logs"),
    headers: parseHeaders(env.OTEL_EXPORTER_OTLP_HEADERS, warnings),
    metricIntervalMs: positiveInt(env.OTEL_METRIC_EXPORT_INTERVAL, 60_000),
    exportTimeoutMs: positiveInt(env.OTEL_EXPORTER_OTLP_TIMEOUT, 10_000),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || "acai",
    content: {
      prompts: isOn(env.OTEL_LOG_USER_PROMPTS),
      toolDetails: isOn(env.OTEL_LOG_TOOL_DETAILS),
    },
  };
  return { config, warnings };
}

function isOn(value: string | undefined): boolean {
  const v = value?.trim().toLowerCase();
  return v === "1" || v === "true";
}

/** `OTEL_TRACES_EXPORTER` …: `otlp` (the default once telemetry is on), `console`, `none`. */
function exporterOf(env: Env, signal: Signal, warnings: string[]): ExporterKind {
  const name = `OTEL_${signal.toUpperCase()}_EXPORTER`;
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === "") return "otlp";
  if (value === "otlp" || value === "console" || value === "none") return value;
  warnings.push(
    `${name}=${value} is not an exporter acai knows (otlp, console, none); ${signal} are not exported.`,
  );
  return "none";
}

/** The signal's own endpoint as given, else the shared one with `/v1/<signal>` appended. */
function signalUrl(env: Env, signal: Signal): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || DEFAULT_ENDPOINT;
  return `${base.replace(/\/+$/, "")}/v1/${signal}`;
}

/** `key=value,key2=value2`, values percent-decoded (the OTLP exporter's format). */
function parseHeaders(raw: string | undefined, warnings: string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const part of (raw ?? "").split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    const key = eq > 0 ? part.slice(0, eq).trim() : "";
    if (key === "") {
      warnings.push("OTEL_EXPORTER_OTLP_HEADERS has an entry without key=value; it is left out.");
      continue;
    }
    headers[key] = safeDecode(part.slice(eq + 1).trim());
  }
  return headers;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function positiveInt(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n > 0 ? n : fallback;
}
