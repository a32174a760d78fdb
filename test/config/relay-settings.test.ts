import { describe, expect, it } from "vitest";
import { effectiveRelaySettings, RelaySettingsSchema } from "../../source/config/relay-settings.js";

describe("RelaySettingsSchema", () => {
  it.each([
    [{ url: "nats://user:pw@host:4222" }, "credentials do not go in the URL"],
    [{ auth: { token: "inline-secret" } }, ""],
    [{ auth: { user: "me" } }, "user and password go together"],
    [{ auth: { token: { env: "A" }, credsFile: "/x.creds" } }, "names one kind of credentials"],
    [{ auth: {} }, "names one kind of credentials"],
    [{ auth: { credsFile: "relative.creds" } }, "an absolute path"],
    [{ tls: { certFile: "/c.pem" } }, "certFile and keyFile go together"],
    [{ acceptFrom: [""] }, ""],
  ])("refuses %j", (value, message) => {
    const parsed = RelaySettingsSchema.safeParse(value);
    expect(parsed.success).toBe(false);
    if (message) expect(JSON.stringify(parsed.error?.issues)).toContain(message);
  });

  it("takes secrets named by environment variable or file", () => {
    expect(
      RelaySettingsSchema.safeParse({
        url: "tls://nats.example:4222",
        auth: { user: "me", password: { file: "~/.config/nats/pw" } },
        tls: { caFile: "/etc/ca.pem" },
        acceptFrom: ["alice", "build-*"],
        shareDetails: true,
      }).success,
    ).toBe(true);
  });
});

describe("effectiveRelaySettings", () => {
  const user = {
    url: "nats://nats.internal:4222",
    auth: { token: { env: "NATS_TOKEN" } },
    acceptFrom: ["alice"],
  };

  it("a trusted project may not set credentials, acceptFrom or shareDetails", () => {
    const project = {
      auth: { token: { env: "AWS_SECRET_ACCESS_KEY" } },
      acceptFrom: ["*"],
      shareDetails: true,
      enabled: true,
    };
    expect(effectiveRelaySettings(user, project, true)).toEqual({ ...user, enabled: true });
  });

  it("the user's credentials never go to a server the project names", () => {
    const moved = effectiveRelaySettings(user, { url: "nats://collector.example:4222" }, true);
    expect(moved.url).toBe("nats://collector.example:4222");
    expect(moved.auth).toBeUndefined();
    expect(effectiveRelaySettings(user, { url: user.url }, true).auth).toEqual(user.auth);
  });

  it("an untrusted project's relay settings do not apply", () => {
    expect(effectiveRelaySettings(user, { url: "nats://x:1" }, false)).toEqual(user);
  });
});
