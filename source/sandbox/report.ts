/**
 * What is in force, in the words `acai doctor`, the `--verbose` start line
 * and the one-line notice use, and as the `sandbox` field of the
 * `session_start` payload.
 */
import type { SandboxPolicy } from "./policy.js";

export type SandboxReport =
  | {
      readonly state: "on";
      readonly policy: SandboxPolicy;
      readonly bwrap: string;
      readonly containment: "namespace";
    }
  | { readonly state: "off"; readonly reason: string; readonly containment: "marker" }
  | {
      readonly state: "unavailable";
      readonly missing: string;
      readonly fix: string;
      readonly containment: "marker";
    };

/** The `sandbox` field of the session_start payload (hooks.md §3). */
export interface SandboxPayload {
  enabled: boolean;
  policy: string | null;
  containment: "namespace" | "marker";
  network: "none" | "hosts" | "all" | null;
  reason?: string;
}

export function sandboxPayload(report: SandboxReport): SandboxPayload {
  switch (report.state) {
    case "on":
      return {
        enabled: true,
        policy: report.policy.name,
        containment: report.containment,
        network: report.policy.network.kind,
      };
    case "off":
      return {
        enabled: false,
        policy: null,
        containment: "marker",
        network: null,
        reason: report.reason,
      };
    case "unavailable":
      return {
        enabled: false,
        policy: null,
        containment: "marker",
        network: null,
        reason: report.missing,
      };
    default:
      return report satisfies never;
  }
}

/** The one line said once at start when the sandbox cannot run (nothing when it runs or was turned off). */
export function sandboxNotice(report: SandboxReport): string | undefined {
  if (report.state !== "unavailable") return undefined;
  return `sandbox: off — ${report.missing}; ${report.fix}. Tools and hooks run unsandboxed, with marker containment (set sandbox.enabled to false to silence this, or sandbox.required to true to refuse).`;
}

/** The `--verbose` start line. */
export function sandboxStartLine(report: SandboxReport): string {
  switch (report.state) {
    case "on":
      return `sandbox: on (policy ${report.policy.name}, bubblewrap ${report.bwrap}, network ${networkWords(report.policy)}, containment: PID namespace)`;
    case "off":
      return `sandbox: off (${report.reason}; containment: marker)`;
    case "unavailable":
      return `sandbox: unavailable (${report.missing}; containment: marker)`;
    default:
      return report satisfies never;
  }
}

/** `acai doctor`'s lines about the sandbox. */
export function sandboxDoctorLines(report: SandboxReport): string[] {
  const lines = [sandboxStartLine(report)];
  switch (report.state) {
    case "on": {
      const p = report.policy;
      lines.push(`  writable: ${p.write.join(", ")}`);
      lines.push(`  read-only: ${p.readOnly.join(", ")}`);
      lines.push(`  unreadable: ${p.denyRead.join(", ")}`);
      lines.push(`  network: ${networkWords(p)}`);
      return lines;
    }
    case "off":
      return lines;
    case "unavailable":
      lines.push(`  to fix: ${report.fix}`);
      return lines;
    default:
      return report satisfies never;
  }
}

function networkWords(policy: SandboxPolicy): string {
  switch (policy.network.kind) {
    case "none":
      return "off";
    case "hosts":
      return `only ${policy.network.allow.join(", ")} (through acai's proxy)`;
    case "all":
      return "every host";
    default:
      return policy.network satisfies never;
  }
}
