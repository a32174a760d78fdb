/**
 * How acai may connect to the NATS server of `relay.url`: with the credentials
 * of `relay.auth` (read here from the environment variable or file they name,
 * never printed), over TLS when `relay.tls` or a `tls://` URL asks for it. A
 * server that is not on this machine is refused without credentials: anyone
 * who reaches it could message the agents. On this machine an open server is
 * allowed, with one warning (any local client can message the agent).
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import path from "node:path";
import type { RelaySettings, RelayTls, SecretRef } from "../config/relay-settings.js";
import { RelayError } from "./message.js";

/** What a secret file may hold at most (a creds file is a few KiB). */
const MAX_SECRET_BYTES = 64 * 1024;

type NatsCredentials =
  | { kind: "none" }
  | { kind: "token"; token: string }
  | { kind: "user"; user: string; password: string }
  | { kind: "nkey"; seed: Uint8Array }
  | { kind: "creds"; creds: Uint8Array };

export interface NatsAccess {
  url: string;
  credentials: NatsCredentials;
  tls?: RelayTls;
  /** The connection authenticates (credentials or a TLS client certificate). */
  authenticated: boolean;
  warnings: string[];
}

export interface NatsAccessOptions {
  env: Readonly<Record<string, string | undefined>>;
  homeDir: string;
}

export class RelayConfigError extends RelayError {
  override name = "RelayConfigError";
}

/** The connection `settings` allow, or a RelayConfigError naming the setting to fix. */
export function natsAccess(
  url: string,
  settings: RelaySettings,
  options: NatsAccessOptions,
): NatsAccess {
  const credentials = readCredentials(settings, options);
  const tls = settings.tls;
  const clientCert = tls?.certFile !== undefined;
  const authenticated = credentials.kind !== "none" || clientCert;
  const warnings: string[] = [];
  if (!authenticated) {
    if (!isLoopbackUrl(url)) {
      throw new RelayConfigError(
        `relay.url ${url} is not on this machine, and acai connects to such a server only with credentials: add relay.auth to your settings.json (a token {"token": {"env": "NATS_TOKEN"}}, user and password, nkeySeed or credsFile; see docs/messaging.md)`,
      );
    }
    warnings.push(
      `the NATS server of relay.url (${url}) is used without authentication: any program on this machine can connect to it; only messages signed by this ACAI_HOME (or named in relay.acceptFrom) are taken (add relay.auth to change that)`,
    );
  }
  return {
    url,
    credentials,
    ...(tls ? { tls: resolveTls(tls, options.homeDir) } : {}),
    authenticated,
    warnings,
  };
}

/** `nats://127.0.0.1:4222`, `nats://[::1]:4222`, `nats://localhost:4222`: this machine. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === "localhost" || host === "[::1]" || host === "::1") return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function readCredentials(settings: RelaySettings, options: NatsAccessOptions): NatsCredentials {
  const auth = settings.auth;
  if (auth === undefined) return { kind: "none" };
  if (auth.token)
    return { kind: "token", token: secretText(auth.token, "relay.auth.token", options) };
  if (auth.user !== undefined && auth.password) {
    const password = secretText(auth.password, "relay.auth.password", options);
    return { kind: "user", user: auth.user, password };
  }
  if (auth.nkeySeed) {
    const seed = secretText(auth.nkeySeed, "relay.auth.nkeySeed", options);
    return { kind: "nkey", seed: new TextEncoder().encode(seed) };
  }
  if (auth.credsFile) {
    const file = expandHome(auth.credsFile, options.homeDir);
    return { kind: "creds", creds: readSecretFile(file, "relay.auth.credsFile") };
  }
  throw new RelayConfigError("relay.auth names no credentials; see docs/messaging.md");
}

function secretText(ref: SecretRef, setting: string, options: NatsAccessOptions): string {
  if ("env" in ref) {
    const value = options.env[ref.env];
    if (value === undefined || value.trim() === "")
      throw new RelayConfigError(
        `${setting} names the environment variable ${ref.env}, which is not set (set it, or change ${setting})`,
      );
    return value.trim();
  }
  const file = expandHome(ref.file, options.homeDir);
  const text = new TextDecoder().decode(readSecretFile(file, setting)).trim();
  if (text === "") throw new RelayConfigError(`${setting}: the file ${file} is empty`);
  return text;
}

/** A regular file's bytes, capped; errors name the setting (never the content). */
function readSecretFile(file: string, setting: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (error) {
    throw new RelayConfigError(
      `${setting}: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new RelayConfigError(`${setting}: ${file} is not a regular file`);
    if (stats.size > MAX_SECRET_BYTES)
      throw new RelayConfigError(`${setting}: ${file} is larger than ${MAX_SECRET_BYTES} bytes`);
    const buffer = Buffer.alloc(stats.size);
    const read = readSync(fd, buffer, 0, stats.size, 0);
    return new Uint8Array(buffer.subarray(0, read));
  } finally {
    closeSync(fd);
  }
}

function resolveTls(tls: RelayTls, homeDir: string): RelayTls {
  const out: RelayTls = {};
  if (tls.caFile) out.caFile = expandHome(tls.caFile, homeDir);
  if (tls.certFile) out.certFile = expandHome(tls.certFile, homeDir);
  if (tls.keyFile) out.keyFile = expandHome(tls.keyFile, homeDir);
  return out;
}

function expandHome(file: string, homeDir: string): string {
  return file.startsWith("~/") ? path.join(homeDir, file.slice(2)) : file;
}
