/**
 * `type: "http"` settings hooks through `acai -p`: the payload is POSTed to a
 * server this test starts on 127.0.0.1, and its answer decides as a command
 * hook's stdout would (block, allow); a server that does not answer in time
 * is the hook's failure with its policy; a URL outside the user's
 * `allowedHttpHookUrls` is never posted to (and a project cannot widen the
 * list); a header gets only the variables `allowedEnvVars` lists.
 */
import { readFile, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";

interface Seen {
  body: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
}

interface HookServer {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

/** A hook server answering every POST with `answer` (undefined: never answers). */
async function hookServer(
  answer: { status: number; body: string } | undefined,
): Promise<HookServer> {
  const seen: Seen[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      seen.push({ body: JSON.parse(raw) as Record<string, unknown>, headers: req.headers });
      if (answer === undefined) {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, { "content-type": "application/json" });
      res.end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let dirs: AcaiDirs | undefined;
let server: HookServer | undefined;
afterEach(async () => {
  await server?.close();
  await dirs?.cleanup();
  server = undefined;
  dirs = undefined;
});

async function setUp(
  answer: { status: number; body: string } | undefined,
  hook: (url: string) => object,
  userSettings: object = {},
): Promise<{ d: AcaiDirs; s: HookServer }> {
  const d = await makeAcaiDirs("acai-hook-http-");
  dirs = d;
  const s = await hookServer(answer);
  server = s;
  const settings = {
    ...userSettings,
    hooks: { PreToolUse: [{ matcher: "Bash", hooks: [hook(s.url)] }] },
  };
  await writeFile(path.join(d.acaiHome, "settings.json"), JSON.stringify(settings));
  await writeReplay(d);
  return { d, s };
}

async function writeReplay(d: AcaiDirs): Promise<void> {
  await writeFile(
    path.join(d.cwd, "replay.json"),
    JSON.stringify({
      turns: [
        { tool_calls: [{ name: "Bash", input: { command: "echo ran > ran.txt" } }] },
        { text: "done" },
      ],
    }),
  );
}

const ran = (d: AcaiDirs) =>
  stat(path.join(d.cwd, "ran.txt")).then(
    () => true,
    () => false,
  );

const run = (d: AcaiDirs, env: Record<string, string> = {}, extra: string[] = []) =>
  runAcai({
    args: [
      "-p",
      "go",
      "--model",
      "replay:replay.json",
      "--yes",
      "--output-format",
      "json",
      ...extra,
    ],
    dirs: d,
    env,
  });

async function auditLines(d: AcaiDirs): Promise<Record<string, unknown>[]> {
  const text = await readFile(path.join(d.acaiHome, "logs", "hooks-audit.jsonl"), "utf8");
  return text
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("an http hook", () => {
  it("blocks the tool call when the server answers a block, and gets the payload", async () => {
    const answer = { decision: "block", reason: "no shell from this server" };
    const { d, s } = await setUp({ status: 200, body: JSON.stringify(answer) }, (url) => ({
      type: "http",
      url,
    }));
    const result = await run(d);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(await ran(d)).toBe(false);
    expect(s.seen).toHaveLength(1);
    expect(s.seen[0]?.body).toMatchObject({
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "echo ran > ran.txt" },
    });
    expect(s.seen[0]?.headers["content-type"]).toBe("application/json");
    const lines = await auditLines(d);
    expect(lines).toContainEqual(
      expect.objectContaining({ event: "before_tool", type: "http", decision: "block" }),
    );
  });

  it("lets the call run when the server answers 200 with an empty body", async () => {
    const { d, s } = await setUp({ status: 200, body: "" }, (url) => ({ type: "http", url }));
    const result = await run(d);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(s.seen).toHaveLength(1);
    expect(await ran(d)).toBe(true);
  });

  it("a server error is the hook's failure: open goes on with a warning, onFailure block blocks", async () => {
    const open = await setUp({ status: 500, body: "oops" }, (url) => ({ type: "http", url }));
    const first = await run(open.d);
    expect(first.stderr).toContain("answered HTTP 500");
    expect(await ran(open.d)).toBe(true);
    await server?.close();
    await dirs?.cleanup();
    const closed = await setUp({ status: 500, body: "oops" }, (url) => ({
      type: "http",
      url,
      onFailure: "block",
    }));
    await run(closed.d);
    expect(await ran(closed.d)).toBe(false);
  });

  it("times out past its timeout: the failure names it and the call goes on (failure open)", async () => {
    const { d, s } = await setUp(undefined, (url) => ({ type: "http", url, timeout: 0.5 }));
    const result = await run(d);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(s.seen).toHaveLength(1);
    expect(result.stderr).toContain("timed out after 500 ms");
    expect(await ran(d)).toBe(true);
    const lines = await auditLines(d);
    expect(lines).toContainEqual(expect.objectContaining({ type: "http", timed_out: true }));
  });

  it("is not run when its URL matches none of the user's allowedHttpHookUrls", async () => {
    const { d, s } = await setUp(
      { status: 200, body: JSON.stringify({ decision: "block", reason: "x" }) },
      (url) => ({ type: "http", url }),
      { allowedHttpHookUrls: ["https://hooks.example.com/*"] },
    );
    const result = await run(d);
    expect(s.seen).toHaveLength(0);
    expect(result.stderr).toContain("allowedHttpHookUrls");
    expect(result.stderr).toContain(path.join(d.acaiHome, "settings.json"));
    expect(await ran(d)).toBe(true);
  });

  it("runs when its URL matches a pattern of allowedHttpHookUrls", async () => {
    const { d, s } = await setUp(
      { status: 200, body: JSON.stringify({ decision: "block", reason: "x" }) },
      (url) => ({ type: "http", url }),
      { allowedHttpHookUrls: ["http://127.0.0.1:*/*"] },
    );
    await run(d);
    expect(s.seen).toHaveLength(1);
    expect(await ran(d)).toBe(false);
  });

  it("a project's http hook posts nowhere the user did not allow, whatever the project's own list says", async () => {
    const d = await makeAcaiDirs("acai-hook-http-");
    dirs = d;
    const s = await hookServer({ status: 200, body: "" });
    server = s;
    await writeReplay(d);
    const project = {
      allowedHttpHookUrls: ["*"],
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "http", url: s.url }] }] },
    };
    await writeFile(path.join(d.acaiHome, "settings.json"), "{}");
    const { mkdir } = await import("node:fs/promises");
    await mkdir(path.join(d.cwd, ".acai"));
    await writeFile(path.join(d.cwd, ".acai", "settings.json"), JSON.stringify(project));
    const result = await run(d, {}, ["--trust-project"]);
    expect(s.seen).toHaveLength(0);
    expect(result.stderr).toContain("a project's http hook posts only to URLs the user allowed");
  });

  it("fills a header only with variables allowedEnvVars lists; others are sent empty, with a warning", async () => {
    const { d, s } = await setUp({ status: 200, body: "" }, (url) => ({
      type: "http",
      url,
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's header syntax
      headers: { Authorization: "Bearer $SECRET_TOKEN", "X-Team": "${TEAM}-team" },
      allowedEnvVars: ["TEAM"],
    }));
    const result = await run(d, { SECRET_TOKEN: "s3cret-value", TEAM: "blue" });
    expect(s.seen).toHaveLength(1);
    const headers = s.seen[0]?.headers ?? {};
    expect(headers["x-team"]).toBe("blue-team");
    expect(headers.authorization).toBe("Bearer");
    expect(JSON.stringify(s.seen[0])).not.toContain("s3cret-value");
    expect(result.stderr).toContain("$SECRET_TOKEN");
    expect(result.stderr).toContain("allowedEnvVars");
  });
});
