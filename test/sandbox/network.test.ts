import { lstat, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createNetworkBridges,
  type NetworkBridges,
  PROXY_PORT,
} from "../../source/sandbox/network.js";
import type { SandboxPolicy } from "../../source/sandbox/policy.js";
import { acaiSocketFolder, userFolder } from "../../source/shared/user-folder.js";

let bridges: NetworkBridges | undefined;
const servers: net.Server[] = [];
afterEach(() => {
  bridges?.close();
  for (const server of servers.splice(0)) server.close();
});

async function echoServer(): Promise<number> {
  const server = net.createServer((socket) => socket.pipe(socket));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as net.AddressInfo).port;
}

function policyAllowing(allow: string[], deny: string[] = []): SandboxPolicy {
  return {
    name: "t",
    write: [],
    readOnly: [],
    denyRead: [],
    network: { kind: "hosts", allow, deny },
  };
}

/** Sends `text` on the unix socket and collects what comes back until it closes or `until` appears. */
function exchange(socket: string, text: string, until: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = net.connect(socket);
    let got = "";
    client.on("data", (chunk) => {
      got += chunk.toString();
      if (got.includes(until)) {
        client.destroy();
        resolve(got);
      }
    });
    client.on("end", () => resolve(got));
    client.on("error", reject);
    client.write(text);
  });
}

describe("the sandbox's network proxy", () => {
  it("tunnels CONNECT to an allowed host:port and refuses others with 403 and the setting", async () => {
    const port = await echoServer();
    bridges = createNetworkBridges({ node: "/node", script: "/bridge.js" });
    const bridge = bridges.bridgeFor(policyAllowing([`127.0.0.1:${port}`]));
    const proxy = path.join(bridge.socketDir, "proxy.sock");
    const tunnelled = await exchange(
      proxy,
      `CONNECT 127.0.0.1:${port} HTTP/1.1\r\nHost: x\r\n\r\nhello-through`,
      "hello-through",
    );
    expect(tunnelled).toContain("200 Connection Established");
    expect(tunnelled).toContain("hello-through");
    const refused = await exchange(proxy, "CONNECT evil.example:443 HTTP/1.1\r\n\r\n", "\n\n");
    expect(refused).toContain("403 Forbidden");
    expect(refused).toContain("sandbox.network.allowedDomains");
    expect(bridges.takeRefused()).toEqual(["evil.example:443"]);
    expect(bridges.takeRefused()).toEqual([]);
  });

  it("a denied host stays refused although allowed; plain HTTP is checked by its URL's host", async () => {
    bridges = createNetworkBridges({ node: "/node", script: "/bridge.js" });
    const bridge = bridges.bridgeFor(policyAllowing(["*.example.com"], ["bad.example.com"]));
    const proxy = path.join(bridge.socketDir, "proxy.sock");
    const refused = await exchange(proxy, "GET http://bad.example.com/ HTTP/1.1\r\n\r\n", "\n\n");
    expect(refused).toContain("403 Forbidden");
    expect(bridges.takeRefused()).toEqual(["bad.example.com:80"]);
  });

  it("the process is started through the bridge with HTTP(S)_PROXY to it, and local ports get their own socket", () => {
    bridges = createNetworkBridges({ node: "/node", script: "/bridge.js" });
    const bridge = bridges.bridgeFor(policyAllowing(["127.0.0.1:8080", "api.github.com"]));
    expect(bridge.prefix?.slice(0, 2)).toEqual(["/node", "/bridge.js"]);
    expect(bridge.prefix?.at(-1)).toBe("--");
    const spec = JSON.parse(String(bridge.prefix?.[2])) as {
      listen: { port: number; socket: string }[];
    };
    expect(spec.listen.map((l) => l.port)).toEqual([PROXY_PORT, 8080]);
    expect(spec.listen[1]?.socket).toBe(path.join(bridge.socketDir, "port-8080.sock"));
    expect(bridge.env?.HTTPS_PROXY).toBe(`http://127.0.0.1:${PROXY_PORT}`);
  });

  it("keeps each bridge's folder in this user's private folder of them (hidden by every sandbox), and removes it at close", async () => {
    const tmp = await mkdtemp(path.join(tmpdir(), "acai-net-test-"));
    try {
      bridges = createNetworkBridges({ node: "/node", script: "/bridge.js", tmpDir: tmp });
      const bridge = bridges.bridgeFor(policyAllowing(["a.example"]));
      const own = userFolder(tmp, "acai-networks");
      expect(path.dirname(bridge.socketDir)).toBe(own);
      expect(bridge.socketParent).toBe(own);
      expect((await stat(own)).mode & 0o777).toBe(0o700);
      expect(await readdir(bridge.socketDir)).toEqual(["proxy.sock"]);
      bridges.close();
      bridges = undefined;
      expect(await readdir(own)).toEqual([]);
    } finally {
      bridges?.close();
      bridges = undefined;
      await rm(tmp, { recursive: true, force: true });
    }
  });

  it("where this user's folder of them is not theirs alone (a link, a file, a folder open to others), keeps them in a private one of this acai's, the one every sandbox hides", async () => {
    const tmp = await mkdtemp(path.join(tmpdir(), "acai-net-test-"));
    const spoil = [
      (own: string) => symlink(tmp, own),
      (own: string) => writeFile(own, "not a folder\n"),
      (own: string) => mkdir(own, { mode: 0o755 }),
    ];
    try {
      for (const [i, make] of spoil.entries()) {
        // A temp folder of its own each: the choice of folder holds for the process.
        const temp = path.join(tmp, `t${i}`);
        await mkdir(temp);
        const own = userFolder(temp, "acai-networks");
        await make(own);
        bridges = createNetworkBridges({ node: "/node", script: "/bridge.js", tmpDir: temp });
        const first = bridges.bridgeFor(policyAllowing(["a.example"]));
        const second = bridges.bridgeFor(policyAllowing(["b.example"]));
        expect(first.socketParent).toMatch(new RegExp(`^${own}-[A-Za-z0-9]{6}$`));
        expect(first.socketParent).toBe(acaiSocketFolder(temp, "acai-networks"));
        expect(path.dirname(first.socketDir)).toBe(first.socketParent);
        expect(second.socketParent).toBe(first.socketParent);
        expect((await lstat(first.socketParent)).mode & 0o777).toBe(0o700);
        expect((await readdir(temp)).filter((name) => name.startsWith("acai-net-"))).toEqual([]);
        bridges.close();
        bridges = undefined;
        expect(await readdir(first.socketParent)).toEqual([]);
      }
    } finally {
      bridges?.close();
      bridges = undefined;
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
