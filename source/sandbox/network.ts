/**
 * The network outside the sandbox, for policies with allowed hosts: per
 * policy, a private folder with unix sockets that the in-sandbox bridge
 * (bridge.ts) reaches — `proxy.sock`, an HTTP proxy (CONNECT for TLS,
 * absolute URLs for plain HTTP) that lets through only the allowed hosts, and
 * `port-PORT.sock` for each `127.0.0.1:PORT` / `localhost:PORT` entry, a plain
 * TCP pipe to that port on this machine. The process gets HTTP(S)_PROXY to the
 * bridge. A refused host is answered 403 with the setting to change, and kept
 * for the refusal note (refusal.ts).
 *
 * The folders lie in acai's folder of them (`$TMPDIR/acai-networks-<uid>`, or this acai's own
 * where that is not this user's alone — shared/user-folder.ts), which every sandbox hides
 * (session.ts): the temp folder is writable in a sandbox, and a process there could otherwise
 * replace another session's socket with its own. Inside its sandbox, a bridge's folder is the
 * only one in that folder, read-only (bwrap-args.ts) — a unix socket connects all the same.
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { neededSocketFolder } from "../shared/user-folder.js";
import type { BridgeFolder } from "./bwrap-args.js";
import { hostAllowed, localPorts } from "./hosts.js";
import type { LaunchExtras } from "./launch.js";
import type { SandboxPolicy } from "./policy.js";

/** The proxy's port inside the sandbox (its own network namespace: nothing else listens there). */
export const PROXY_PORT = 3128;
const MAX_HEAD_BYTES = 64 * 1024;

export interface NetworkBridges {
  bridgeFor(policy: SandboxPolicy): LaunchExtras & BridgeFolder;
  /** Hosts the proxy refused since the last call. */
  takeRefused(): string[];
  close(): void;
}

export interface NetworkBridgesOptions {
  node: string;
  script: string;
  /** The temp folder (default: the OS's). */
  tmpDir?: string;
}

export function createNetworkBridges(options: NetworkBridgesOptions): NetworkBridges {
  const servers: net.Server[] = [];
  const dirs: string[] = [];
  let refused: string[] = [];
  return {
    bridgeFor(policy) {
      const network = policy.network;
      const allow = network.kind === "hosts" ? network.allow : [];
      const deny = network.kind === "hosts" ? network.deny : [];
      const socketParent = neededSocketFolder(options.tmpDir ?? tmpdir(), "acai-networks");
      const socketDir = mkdtempSync(path.join(socketParent, "acai-net-"));
      dirs.push(socketDir);
      const proxySocket = path.join(socketDir, "proxy.sock");
      servers.push(
        listenUnix(proxySocket, (client) =>
          proxyConnection(client, (host, port) => {
            const ok = hostAllowed(host, port, allow, deny);
            if (!ok) refused.push(`${host}:${port}`);
            return ok;
          }),
        ),
      );
      const listen = [{ port: PROXY_PORT, socket: proxySocket }];
      for (const port of localPorts(allow)) {
        const socket = path.join(socketDir, `port-${port}.sock`);
        servers.push(listenUnix(socket, (client) => pipeTo(client, "127.0.0.1", port)));
        listen.push({ port, socket });
      }
      const proxy = `http://127.0.0.1:${PROXY_PORT}`;
      return {
        socketDir,
        socketParent,
        prefix: [options.node, options.script, JSON.stringify({ listen }), "--"],
        env: {
          HTTP_PROXY: proxy,
          HTTPS_PROXY: proxy,
          http_proxy: proxy,
          https_proxy: proxy,
          NO_PROXY: "127.0.0.1,localhost",
          no_proxy: "127.0.0.1,localhost",
        },
      };
    },
    takeRefused() {
      const out = refused;
      refused = [];
      return out;
    },
    close() {
      for (const server of servers) server.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function listenUnix(socket: string, onConnection: (client: net.Socket) => void): net.Server {
  const server = net.createServer(onConnection);
  server.on("error", () => {});
  server.listen(socket);
  server.unref();
  return server;
}

function pipeTo(client: net.Socket, host: string, port: number, first?: Buffer): void {
  const upstream = net.connect(port, host);
  if (first && first.length > 0) upstream.write(first);
  client.pipe(upstream).pipe(client);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
}

/** One proxy connection: the request head decides where it goes, or that it goes nowhere. */
function proxyConnection(
  client: net.Socket,
  allowed: (host: string, port: number) => boolean,
): void {
  let head = Buffer.alloc(0);
  client.on("error", () => client.destroy());
  const onData = (chunk: Buffer) => {
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    if (end < 0) {
      if (head.length > MAX_HEAD_BYTES) client.destroy();
      return;
    }
    client.off("data", onData);
    client.pause();
    const target = requestTarget(head.subarray(0, end).toString("latin1"));
    if (target === undefined) return answer(client, 400, "acai sandbox proxy: not a proxy request");
    if (!allowed(target.host, target.port)) {
      return answer(
        client,
        403,
        `acai sandbox: connections to ${target.host}:${target.port} are not allowed (add the host to sandbox.network.allowedDomains in ~/.acai/settings.json)`,
      );
    }
    if (target.connect) {
      const rest = head.subarray(end + 4);
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      pipeTo(client, target.host, target.port, rest);
    } else {
      pipeTo(client, target.host, target.port, head);
    }
    client.resume();
  };
  client.on("data", onData);
}

function requestTarget(head: string): { host: string; port: number; connect: boolean } | undefined {
  const [method, target] = (head.split("\r\n")[0] ?? "").split(" ");
  if (method === undefined || target === undefined) return undefined;
  if (method.toUpperCase() === "CONNECT") {
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(target);
    return match
      ? { host: match[1]!.toLowerCase(), port: Number(match[2]), connect: true }
      : undefined;
  }
  try {
    const url = new URL(target);
    if (url.protocol !== "http:") return undefined;
    return { host: url.hostname.toLowerCase(), port: Number(url.port || 80), connect: false };
  } catch {
    return undefined;
  }
}

function answer(client: net.Socket, status: number, text: string): void {
  const reason = status === 403 ? "Forbidden" : "Bad Request";
  client.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain\r\nX-Acai-Sandbox: refused\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(text) + 1}\r\n\r\n${text}\n`,
  );
}
