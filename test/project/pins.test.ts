import { execFileSync } from "node:child_process";
import { mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { trustedLinks } from "../../source/project/links.js";
import { buildProjectManifest, type ManifestInput } from "../../source/project/manifest.js";
import { mcpServerPins, replayPins } from "../../source/project/pins.js";
import { tempFolder } from "./support.js";

describe("mcpServerPins", () => {
  it.each([
    [{ command: "node", args: ["./tools/server.js"] }, ["/p/tools/server.js"]],
    [{ command: "python3", args: ["scripts/mcp.py", "--port", "1"] }, ["/p/scripts/mcp.py"]],
    [{ command: "./bin/server" }, ["/p/bin/server"]],
    [
      { command: "node", args: ["--config=conf/x.json", "main.mjs"] },
      ["/p/conf/x.json", "/p/main.mjs"],
    ],
    [{ command: "node", args: ["server.js"], cwd: "pkg" }, ["/p/pkg/server.js"]],
    [{ command: "npx", args: ["-y", "@scope/mcp-server"] }, []],
    [{ command: "sh", args: ["-c", "cd x && node 'tools/a.js' | tee log"] }, ["/p/tools/a.js"]],
    [{ command: "/usr/bin/python3", args: ["/opt/x.py", "../up.py", "~/.x.js"] }, []],
    [{ command: "uvx", args: ["mcp-server-git", "https://x.example/a.py"] }, []],
  ])("%j", (server, expected) => {
    expect(mcpServerPins(server, "/p").map((pin) => pin.file)).toEqual(expected);
    expect(mcpServerPins(server, "/p").every((pin) => pin.kind === "mcp-server")).toBe(true);
  });
});

describe("replayPins", () => {
  it.each([
    ["replay:fixtures/demo.json", ["/p/fixtures/demo.json"]],
    [" replay:../elsewhere.json ", ["/elsewhere.json"]],
    ["replay:", []],
    ["openai:gpt-5.1", []],
    [undefined, []],
  ])("%s", (spec, expected) => {
    expect(replayPins(spec, "/p").map((pin) => pin.file)).toEqual(expected);
  });
});

const tmp = tempFolder();
const build = (extra: Partial<ManifestInput> = {}) =>
  buildProjectManifest({
    projectDir: tmp.dir(),
    trees: [],
    settingsFiles: [],
    commandPaths: [],
    ...extra,
  });
const pin = (kind: "mcp-server" | "replay", rel: string) => ({
  kind,
  file: path.join(tmp.dir(), rel),
});

describe("buildProjectManifest with pinned files", () => {
  it("hashes an MCP server script and a replay file; an edit changes the fingerprint", async () => {
    const script = await tmp.write("tools/server.js", "console.log(1)\n");
    const replay = await tmp.write("fixtures/r.json", "{}\n");
    const pinned = [pin("mcp-server", "tools/server.js"), pin("replay", "fixtures/r.json")];
    const before = build({ pinned });
    expect(before.entries.map((e) => e.key)).toEqual([
      "mcp-server:tools/server.js",
      "replay:fixtures/r.json",
    ]);
    await writeFile(script, "console.log(2)\n");
    const afterScript = build({ pinned });
    expect(afterScript.fingerprint).not.toBe(before.fingerprint);
    await writeFile(replay, '{"turns":[]}\n');
    expect(build({ pinned }).fingerprint).not.toBe(afterScript.fingerprint);
  });

  it("pins a missing file as missing: one that appears later revokes trust", async () => {
    const pinned = [pin("mcp-server", "bin/server")];
    const before = build({ pinned });
    expect(before.entries).toEqual([{ key: "mcp-server:bin/server", digest: "missing" }]);
    await tmp.write("bin/server", "#!/bin/sh\n", 0o755);
    expect(build({ pinned }).fingerprint).not.toBe(before.fingerprint);
  });

  it("hashes a named folder whole, and interpreters its scripts name inside the project", async () => {
    await tmp.write("server/index.js", "#!./tools/node-wrapper\n");
    await tmp.write("tools/node-wrapper", "echo\n", 0o755);
    expect(build({ pinned: [pin("mcp-server", "server")] }).entries.map((e) => e.key)).toEqual([
      "interpreter:tools/node-wrapper",
      "mcp-server:server/index.js",
    ]);
  });

  it("cannot be trusted when a pinned file is a FIFO or too large (no placeholder hashed)", async () => {
    await mkdir(path.join(tmp.dir(), "tools"));
    const fifo = path.join(tmp.dir(), "tools", "server.js");
    execFileSync("mkfifo", [fifo]);
    const withFifo = build({ pinned: [pin("mcp-server", "tools/server.js")] });
    expect(withFifo.incomplete).toBe(
      `${fifo} (run by a project MCP server) is a FIFO, so it cannot be hashed: make it a regular file or remove it`,
    );
    await tmp.write("r.json", "x".repeat(2048));
    const big = build({
      pinned: [pin("replay", "r.json")],
      limits: { maxFiles: 10, maxFileBytes: 1024, maxTotalBytes: 1 << 20 },
    });
    expect(big.incomplete).toContain(
      `${path.join(tmp.dir(), "r.json")} cannot be hashed: it is larger`,
    );
  });

  it("a FIFO named by a settings command makes the set incomplete too", async () => {
    const fifo = path.join(tmp.dir(), "check.sh");
    execFileSync("mkfifo", [fifo]);
    expect(build({ commandPaths: [fifo] }).incomplete).toContain(
      `${fifo} (named by a project command) is a FIFO`,
    );
  });

  it("records a named file that is a link as the link and its content, and the links list says where it leads", async () => {
    const home = await tmp.write("../home-of-test/id_rsa", "PRIVATE KEY\n");
    await symlink(home, path.join(tmp.dir(), "AGENTS.md"));
    await tmp.write("real.json", "{}");
    await symlink("real.json", path.join(tmp.dir(), "replay.json"));
    const manifest = build({
      settingsFiles: [{ path: path.join(tmp.dir(), "AGENTS.md") }],
      pinned: [pin("replay", "replay.json")],
    });
    expect(manifest.entries).toEqual([
      { key: "AGENTS.md", digest: `link ${home}` },
      { key: "AGENTS.md@", digest: expect.stringMatching(/^file - [0-9a-f]{64}$/) },
      { key: "replay:replay.json", digest: "link real.json" },
      { key: "replay:replay.json@", digest: expect.stringMatching(/^file - [0-9a-f]{64}$/) },
    ]);
    expect(trustedLinks(manifest.entries, tmp.dir())).toEqual([
      { key: "AGENTS.md", target: home, outside: true, dangling: false },
      {
        key: "replay:replay.json",
        target: path.join(tmp.dir(), "real.json"),
        outside: false,
        dangling: false,
      },
    ]);
  });
});
