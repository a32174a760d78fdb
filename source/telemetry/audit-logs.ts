/**
 * The audit log's lines as OpenTelemetry log records (docs/telemetry.md):
 * every hook run's line goes to the file as before and, as a record, to the
 * collector. What a hook printed (its reason, log and stderr, its error) is
 * content: it leaves the machine only with `OTEL_LOG_TOOL_DETAILS=1`.
 */
import { type Logger, SeverityNumber } from "@opentelemetry/api-logs";
import type { AuditEntry, AuditSink } from "../hooks/run/audit.js";

const CONTENT_FIELDS = new Set(["reason", "log", "stderr", "error", "note"]);

export function teeAuditSink(options: {
  inner: AuditSink;
  logger: Logger;
  toolDetails: boolean;
  /** Each entry also reaches the spans (exit code, timeout of the hook's span). */
  onEntry: (entry: AuditEntry) => void;
}): AuditSink {
  const { inner, logger, toolDetails, onEntry } = options;
  return {
    write(entry) {
      inner.write(entry);
      // A considered line (which hooks did not run, and why) stays in the file, for `acai hooks why`.
      if ("kind" in entry) return;
      onEntry(entry);
      logger.emit({
        severityNumber: failed(entry) ? SeverityNumber.WARN : SeverityNumber.INFO,
        body: "acai.hook_run",
        attributes: auditAttributes(entry, toolDetails),
      });
    },
    ...(inner.hold === undefined ? {} : { hold: () => inner.hold?.() ?? (() => {}) }),
    close() {
      inner.close?.();
    },
  };
}

function failed(entry: AuditEntry): boolean {
  return entry.decision === "failed" || entry.timed_out || entry.killed;
}

function auditAttributes(
  entry: AuditEntry,
  toolDetails: boolean,
): Record<string, string | number | boolean> {
  const attributes: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (value === null || value === undefined) continue;
    if (!toolDetails && CONTENT_FIELDS.has(key)) continue;
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      attributes[`acai.${key}`] = value;
    }
  }
  return attributes;
}
