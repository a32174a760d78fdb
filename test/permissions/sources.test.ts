import { describe, expect, it } from "vitest";
import { sessionPermissions } from "../../source/permissions/sources.js";

const user = {
  path: "/home/u/.acai/settings.json",
  scope: "user" as const,
  permissions: { deny: ["Bash(curl:*)"], allow: ["Read"] },
};
const project = {
  path: "/p/.acai/settings.json",
  scope: "project" as const,
  permissions: { allow: ["Bash(npm test:*)"], defaultMode: "acceptEdits" as const },
};

describe("sessionPermissions", () => {
  it("takes the user's rules always, the project's only once it is included", () => {
    const without = sessionPermissions([user, project], false);
    expect(without.rules.allow.map((r) => r.text)).toEqual(["Read"]);
    expect(without.mode).toBe("default");
    const withProject = sessionPermissions([user, project], true);
    expect(withProject.rules.allow.map((r) => r.text)).toEqual(["Read", "Bash(npm test:*)"]);
    expect(withProject.rules.deny.map((r) => r.source.label)).toEqual([user.path]);
    expect(withProject.mode).toBe("acceptEdits");
  });

  it("adds the flags' rules, and the flag's mode wins", () => {
    const s = sessionPermissions([user], false, {
      mode: "plan",
      allow: ["Edit"],
      deny: ["mcp__db"],
    });
    expect(s.mode).toBe("plan");
    expect(s.rules.allow.at(-1)).toMatchObject({
      text: "Edit",
      source: { label: "--allowedTools" },
    });
    expect(s.rules.deny.at(-1)).toMatchObject({ text: "mcp__db", source: { scope: "flag" } });
  });

  it("a project may not turn permission checks off; the user's mode beats the project's", () => {
    const bypass = {
      ...project,
      permissions: { defaultMode: "bypassPermissions" as const },
    };
    const s = sessionPermissions([bypass], true);
    expect(s.mode).toBe("default");
    expect(s.warnings[0]).toMatch(/bypassPermissions.*ignored/);
    const mine = { ...user, permissions: { defaultMode: "plan" as const } };
    expect(sessionPermissions([mine, project], true).mode).toBe("plan");
  });
});
