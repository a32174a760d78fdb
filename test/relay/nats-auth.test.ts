import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isLoopbackUrl, natsAccess, RelayConfigError } from "../../source/relay/nats-auth.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-nats-auth-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const opts = (env: Record<string, string> = {}) => ({ env, homeDir: dir });

describe("isLoopbackUrl", () => {
  it.each([
    ["nats://127.0.0.1:4222", true],
    ["nats://127.9.8.7:4222", true],
    ["nats://localhost:4222", true],
    ["nats://[::1]:4222", true],
    ["tls://LOCALHOST:4222", true],
    ["nats://10.0.0.5:4222", false],
    ["nats://127.0.0.1.evil.example:4222", false],
    ["nats://localhost.evil.example:4222", false],
    ["nats://0.0.0.0:4222", false],
    ["nats://nats.internal:4222", false],
    ["not a url", false],
  ])("%s → %s", (url, loopback) => {
    expect(isLoopbackUrl(url)).toBe(loopback);
  });
});

describe("natsAccess", () => {
  it("refuses a server off this machine without credentials, naming relay.auth", () => {
    expect(() => natsAccess("nats://nats.internal:4222", {}, opts())).toThrow(RelayConfigError);
    expect(() => natsAccess("nats://nats.internal:4222", {}, opts())).toThrow(
      /relay\.url nats:\/\/nats\.internal:4222 is not on this machine.*add relay\.auth/,
    );
  });

  it("allows an open server on loopback with one warning", () => {
    const access = natsAccess("nats://127.0.0.1:4222", {}, opts());
    expect(access.authenticated).toBe(false);
    expect(access.credentials).toEqual({ kind: "none" });
    expect(access.warnings).toHaveLength(1);
    expect(access.warnings[0]).toContain("any program on this machine can connect to it");
  });

  it("reads a token from the environment variable it names; a missing one is said without a value", () => {
    const settings = { auth: { token: { env: "NATS_TOKEN" } } };
    const access = natsAccess(
      "nats://nats.internal:4222",
      settings,
      opts({ NATS_TOKEN: " s3cret\n" }),
    );
    expect(access).toMatchObject({
      authenticated: true,
      credentials: { kind: "token", token: "s3cret" },
    });
    expect(access.warnings).toEqual([]);
    expect(() => natsAccess("nats://nats.internal:4222", settings, opts())).toThrow(
      "relay.auth.token names the environment variable NATS_TOKEN, which is not set",
    );
  });

  it("reads a password, an nkey seed and a creds file from files (~/ is the home folder)", async () => {
    await writeFile(path.join(dir, "pw"), "hunter2\n");
    await writeFile(path.join(dir, "seed"), "SUAEXAMPLESEED\n");
    await writeFile(path.join(dir, "x.creds"), "-----BEGIN NATS USER JWT-----\n");
    const url = "nats://nats.internal:4222";
    expect(
      natsAccess(url, { auth: { user: "me", password: { file: "~/pw" } } }, opts()).credentials,
    ).toEqual({ kind: "user", user: "me", password: "hunter2" });
    const nkey = natsAccess(url, { auth: { nkeySeed: { file: path.join(dir, "seed") } } }, opts());
    expect(nkey.credentials.kind).toBe("nkey");
    expect(new TextDecoder().decode((nkey.credentials as { seed: Uint8Array }).seed)).toBe(
      "SUAEXAMPLESEED",
    );
    expect(natsAccess(url, { auth: { credsFile: "~/x.creds" } }, opts()).credentials.kind).toBe(
      "creds",
    );
  });

  it("names the setting and the file, never the content, when a secret file cannot be used", async () => {
    const url = "nats://nats.internal:4222";
    expect(() => natsAccess(url, { auth: { credsFile: "~/absent.creds" } }, opts())).toThrow(
      `relay.auth.credsFile: cannot read ${path.join(dir, "absent.creds")} (ENOENT)`,
    );
    expect(() => natsAccess(url, { auth: { token: { file: dir } } }, opts())).toThrow(
      /relay\.auth\.token: .* is not a regular file/,
    );
    await writeFile(path.join(dir, "empty"), "\n");
    expect(() => natsAccess(url, { auth: { token: { file: "~/empty" } } }, opts())).toThrow(
      "relay.auth.token: the file",
    );
    const secretFile = path.join(dir, "unreadable");
    await writeFile(secretFile, "topsecret");
    await chmod(secretFile, 0o000);
    if (process.getuid?.() !== 0) {
      const error = (() => {
        try {
          natsAccess(url, { auth: { token: { file: secretFile } } }, opts());
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error?.message).toContain("EACCES");
      expect(error?.message).not.toContain("topsecret");
    }
  });

  it("a TLS client certificate authenticates; files under ~/ are resolved", () => {
    const access = natsAccess(
      "tls://nats.internal:4222",
      { tls: { certFile: "~/c.pem", keyFile: "~/k.pem", caFile: "/etc/ca.pem" } },
      opts(),
    );
    expect(access.authenticated).toBe(true);
    expect(access.tls).toEqual({
      certFile: path.join(dir, "c.pem"),
      keyFile: path.join(dir, "k.pem"),
      caFile: "/etc/ca.pem",
    });
  });
});
