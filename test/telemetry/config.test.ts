import { describe, expect, it } from "vitest";
import { telemetrySetup } from "../../source/telemetry/config.js";

describe("telemetrySetup", () => {
  it("is off unless ACAI_ENABLE_TELEMETRY is 1 or true", () => {
    expect(telemetrySetup({}).config).toBeUndefined();
    expect(telemetrySetup({ ACAI_ENABLE_TELEMETRY: "0" }).config).toBeUndefined();
    expect(telemetrySetup({ ACAI_ENABLE_TELEMETRY: "yes" }).config).toBeUndefined();
    expect(telemetrySetup({ ACAI_ENABLE_TELEMETRY: "TRUE" }).config).toBeDefined();
  });

  it("takes the shared endpoint, a signal's own endpoint over it, and the headers", () => {
    const { config, warnings } = telemetrySetup({
      ACAI_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/",
      OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "http://logs:9/ingest",
      OTEL_EXPORTER_OTLP_HEADERS: "Authorization=Bearer%20abc, x-team = acai ,broken",
    });
    expect(config?.traces.url).toBe("http://collector:4318/v1/traces");
    expect(config?.metrics.url).toBe("http://collector:4318/v1/metrics");
    expect(config?.logs.url).toBe("http://logs:9/ingest");
    expect(config?.headers).toEqual({ Authorization: "Bearer abc", "x-team": "acai" });
    expect(warnings).toEqual([
      "OTEL_EXPORTER_OTLP_HEADERS has an entry without key=value; it is left out.",
    ]);
  });

  it("defaults to OTLP on localhost with no content, and names what it does not support", () => {
    const { config, warnings } = telemetrySetup({
      ACAI_ENABLE_TELEMETRY: "1",
      OTEL_EXPORTER_OTLP_PROTOCOL: "grpc",
      OTEL_METRICS_EXPORTER: "prometheus",
      OTEL_LOGS_EXPORTER: "none",
    });
    expect(config?.traces).toEqual({ exporter: "otlp", url: "http://localhost:4318/v1/traces" });
    expect(config?.metrics.exporter).toBe("none");
    expect(config?.logs.exporter).toBe("none");
    expect(config?.content).toEqual({ prompts: false, toolDetails: false });
    expect(warnings.join("\n")).toContain("OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported");
    expect(warnings.join("\n")).toContain("OTEL_METRICS_EXPORTER=prometheus");
  });
});
