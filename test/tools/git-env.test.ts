import { describe, expect, it } from "vitest";
import { gitGuardedEnv } from "../../source/tools/builtin/git-env.js";

describe("gitGuardedEnv", () => {
  it("turns core.fsmonitor off through GIT_CONFIG_COUNT", () => {
    expect(gitGuardedEnv({ PATH: "/bin" })).toEqual({
      PATH: "/bin",
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "core.fsmonitor",
      GIT_CONFIG_VALUE_0: "false",
    });
  });

  it("keeps entries already given and appends its own after them", () => {
    const env = gitGuardedEnv({
      GIT_CONFIG_COUNT: "1",
      GIT_CONFIG_KEY_0: "user.name",
      GIT_CONFIG_VALUE_0: "x",
    });
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "user.name",
      GIT_CONFIG_KEY_1: "core.fsmonitor",
      GIT_CONFIG_VALUE_1: "false",
    });
    expect(gitGuardedEnv({ GIT_CONFIG_COUNT: "junk" }).GIT_CONFIG_KEY_0).toBe("core.fsmonitor");
  });
});
