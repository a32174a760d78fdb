import { describe, expect, it } from "vitest";
import { formatAuditEntry } from "../../../source/cli/hooks/log.js";
import type { AuditEntry } from "../../../source/hooks/run/audit.js";

const failedEntry: AuditEntry = {
  time: "2026-01-02T03:04:05.678Z",
  session: "4a8024f4-0000",
  event: "before_tool",
  hook: "typed",
  hook_id: "project:executable:/p/.acai/hooks/typed.mts",
  scope: "project",
  source: "executable",
  file: "/p/.acai/hooks/typed.mts",
  decision: "failed",
  exit_code: 1,
  signal: null,
  duration_ms: 40,
  timed_out: false,
  killed: false,
  aborted: false,
  async: false,
  error: "exited with 1: node:internal/modules/esm/get_format:189",
  stderr: `node:internal/modules/esm/get_format:189
  throw new ERR_UNKNOWN_FILE_EXTENSION(ext, filepath);
        ^

TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".mts" for /p/.acai/hooks/typed.mts
    at Object.getFileProtocolModuleFormat [as file:] (node:internal/modules/esm/get_format:189:9)

Node.js v20.20.2
`,
};

describe("acai hooks log lines", () => {
  it("quote the meaningful line of a failed hook's stderr, not the whole stack flattened", () => {
    const text = formatAuditEntry(failedEntry);
    expect(text).toContain(
      '\n    stderr: TypeError [ERR_UNKNOWN_FILE_EXTENSION]: Unknown file extension ".mts" for /p/.acai/hooks/typed.mts',
    );
    expect(text).not.toContain("getFileProtocolModuleFormat");
  });

  it("do not repeat stderr the error already quotes", () => {
    const text = formatAuditEntry({
      ...failedEntry,
      stderr: "boom\n",
      error: "exited with 1: boom",
    });
    expect(text).not.toContain("stderr:");
  });
});
