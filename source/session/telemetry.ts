/**
 * A session's telemetry (docs/telemetry.md): off unless the session's
 * environment turns it on; then the OpenTelemetry SDK is imported (never
 * before: a session without telemetry loads none of it) and started for this
 * session. A failure to start is a warning, never a failed session.
 */
import { sessionPrice } from "../models/pricing.js";
import { packageVersion } from "../shared/package-version.js";
import { telemetrySetup } from "../telemetry/config.js";
import type { SessionTelemetry } from "../telemetry/session.js";

export interface TelemetryStart {
  telemetry: SessionTelemetry | undefined;
  warnings: string[];
}

export async function startSessionTelemetry(session: {
  env: Readonly<Record<string, string>>;
  modelId: string;
  baseUrlFlag: string | undefined;
  settings: {
    baseUrl?: string | undefined;
    pricing?: Record<string, { input: number; output: number }> | undefined;
  };
}): Promise<TelemetryStart> {
  const { config, warnings } = telemetrySetup(session.env);
  if (config === undefined) return { telemetry: undefined, warnings };
  try {
    const { startTelemetry } = await import("../telemetry/session.js");
    const telemetry = startTelemetry({
      config,
      version: packageVersion(),
      price: sessionPrice(session),
    });
    return { telemetry, warnings };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      telemetry: undefined,
      warnings: [...warnings, `telemetry is off for this session: it could not start (${why})`],
    };
  }
}
