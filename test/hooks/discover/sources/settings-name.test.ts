import { describe, expect, it } from "vitest";
import { settingsHookName } from "../../../../source/hooks/discover/sources/settings-name.js";

describe("settingsHookName", () => {
  it("names a settings hook by its script, else its first words", () => {
    const cases: [string, string][] = [
      ['"$CLAUDE_PROJECT_DIR"/.claude/hooks/format.sh', "format.sh"],
      ["./gate.sh", "gate.sh"],
      ["python3 ~/.claude/hooks/tts.py --voice alloy", "tts.py"],
      ["python3.12 -u hooks/check.py", "check.py"],
      ["FOO=1 bash scripts/lint.sh", "lint.sh"],
      ["/usr/bin/env python3 notify.py", "notify.py"],
      ["uv run check.py", "check.py"],
      ['npx prettier --write "$file"', "npx prettier"],
      ["jq -r '.tool_input.command' | grep -q 'rm -rf' && exit 2 || exit 0", "jq"],
      ["echo hi >> /tmp/log", "echo hi"],
      ["cat", "cat"],
      ["touch /tmp/marker", "touch"],
    ];
    for (const [command, name] of cases) expect(settingsHookName(command), command).toBe(name);
    expect(settingsHookName(`${"x".repeat(60)} y`).length).toBeLessThanOrEqual(40);
  });
});
