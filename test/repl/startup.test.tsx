import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../../source/repl/app.js";
import { ReplController } from "../../source/repl/controller.js";
import type { PrepareForRepl } from "../../source/repl/types.js";
import type { ProjectTrustState } from "../../source/session/types.js";
import { cleanup, render } from "../support/ink-render.js";
import { REPO_ROOT } from "../support/run-acai.js";
import { fakeSession, waitFor } from "./fake-session.js";

const run = promisify(execFile);
const dirs: string[] = [];
afterEach(async () => {
  cleanup();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

const NO_PROJECT_HOOKS: ProjectTrustState = {
  status: "no-project-hooks",
  review: { root: "/tmp", items: [], settings: [], changes: { kind: "first-review" } },
  untrusted: [],
  trust: async () => {},
};

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (error: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

async function setup(trust: () => Promise<ProjectTrustState>) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-startup-"));
  dirs.push(dir);
  const prepared: PrepareForRepl[] = [];
  const session = fakeSession();
  const controller = new ReplController({
    prepare: async (o) => {
      prepared.push(o);
      return session;
    },
    trust,
    projectHooks: "require-trust",
    acaiHome: dir,
    env: {},
    exitBudgetMs: 2000,
  });
  const ui = render(<App controller={controller} color={false} />);
  const exit = controller.run();
  const frame = () => ui.lastFrame() ?? "";
  const see = (text: string) => waitFor(() => frame().includes(text), `"${text}" in:\n${frame()}`);
  const type = async (text: string) => {
    ui.stdin.write(text);
    await new Promise((r) => setTimeout(r, 30));
  };
  return { session, prepared, controller, frame, see, type, exit };
}

describe("REPL start-up: the prompt comes before the session", () => {
  it("takes typing while the trust check runs; a prompt typed then is sent once the session is ready", async () => {
    const trust = deferred<ProjectTrustState>();
    const t = await setup(() => trust.promise);
    await t.see("starting the session… (type ahead)");
    await t.type("early question");
    await t.see("› early question");
    await t.type("\r");
    await t.see("queued: early question");
    expect(t.prepared).toHaveLength(0);

    trust.resolve(NO_PROJECT_HOOKS);
    await t.see("ask anything");
    await waitFor(() => t.session.prompts.length === 1, "the early prompt reached the session");
    expect(t.session.prompts).toEqual(["early question"]);
    t.controller.requestExit();
    expect(await t.exit).toBe(0);
  });

  it("a trust check that fails unexpectedly is shown and exits 1 (a bad settings file exits 2: tmux e2e)", async () => {
    const t = await setup(async () => {
      throw new Error("settings.json: hooks must be an object");
    });
    expect(await t.exit).toBe(1);
    await t.see("Could not start a session: settings.json: hooks must be an object");
    expect(t.prepared).toHaveLength(0);
  });

  it("Ctrl-D before the session is ready exits 0 without preparing one", async () => {
    const trust = deferred<ProjectTrustState>();
    const t = await setup(() => trust.promise);
    await t.see("starting the session");
    await t.type("\u0004");
    trust.resolve(NO_PROJECT_HOOKS);
    expect(await t.exit).toBe(0);
    expect(t.prepared).toHaveLength(0);
  });

  it("Ctrl-D while the session is being prepared ends that session at once (session_end runs)", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "acai-repl-startup-"));
    dirs.push(dir);
    const session = fakeSession();
    const preparing = deferred<typeof session>();
    let asked = 0;
    const controller = new ReplController({
      prepare: () => {
        asked++;
        return preparing.promise;
      },
      trust: NO_PROJECT_HOOKS,
      projectHooks: "require-trust",
      acaiHome: dir,
      env: {},
      exitBudgetMs: 2000,
    });
    const exit = controller.run();
    await waitFor(() => asked === 1, "prepare called");
    controller.requestExit();
    preparing.resolve(session);
    expect(await exit).toBe(0);
    expect(await session.finished).toEqual({ reason: "user_exit" });
    expect(session.prompts).toEqual([]);
  });
});

const LOAD_UI = path.join(REPO_ROOT, "dist", "repl", "load-ui.js");

/** Loads the built UI in a fresh Node and reports what got loaded. */
async function probe(env: Record<string, string>) {
  const script = `
    import module, { createRequire } from "node:module";
    const seen = [];
    module.registerHooks({ resolve(s, c, next) { const r = next(s, c); seen.push(r.url); return r; } });
    const before = typeof fetch;
    const { loadUi } = await import(${JSON.stringify(`file://${LOAD_UI}`)});
    const ui = await loadUi();
    const ink = await import("ink");
    // Node lists both builds (export-name analysis); only the one that ran is loaded.
    const cjs = Object.entries(createRequire(${JSON.stringify(`file://${LOAD_UI}`)}).cache)
      .filter(([, m]) => m?.loaded).map(([f]) => f);
    console.log(JSON.stringify({
      mountRepl: typeof ui.mountRepl,
      render: typeof ink.render,
      fetchBefore: before,
      fetchAfter: typeof fetch,
      nodeEnv: process.env.NODE_ENV ?? null,
      esToolkit: seen.filter((u) => u.includes("/es-toolkit/")).length,
      markdownRenderer: seen.filter((u) => u.includes("/repl/markdown/") && !u.endsWith("/load.js")).length,
      undici: process.moduleLoadList?.some((m) => m.includes("undici")) ?? null,
      reactProduction: cjs.some((f) => f.endsWith("react-reconciler.production.js")),
      reactDevelopment: cjs.some((f) => f.endsWith("react-reconciler.development.js")),
    }));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? "", NODE_DISABLE_COMPILE_CACHE: "1", ...env },
    timeout: 20_000,
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}");
}

describe.skipIf(!existsSync(LOAD_UI))("loadUi (built dist/)", () => {
  it("loads ink without es-toolkit's compat barrel nor undici, with React's production build, and restores fetch and NODE_ENV", async () => {
    const unset = await probe({});
    expect(unset).toMatchObject({
      mountRepl: "function",
      render: "function",
      fetchBefore: "function",
      fetchAfter: "function",
      nodeEnv: null,
      reactProduction: true,
      reactDevelopment: false,
      undici: false,
      // The Markdown renderer loads while the session starts, not before the first frame.
      markdownRenderer: 0,
    });
    // The whole barrel is ~1,300 resolutions; ink's throttle needs a handful.
    expect(unset.esToolkit).toBeGreaterThan(0);
    expect(unset.esToolkit).toBeLessThan(20);

    const user = await probe({ NODE_ENV: "development" });
    expect(user.nodeEnv).toBe("development");
    expect(user.reactProduction).toBe(true);
  });

  it("ink imports nothing but throttle from es-toolkit/compat (what the resolve shortcut provides)", async () => {
    const build = path.join(REPO_ROOT, "node_modules", "ink", "build");
    const files = (await readdir(build, { recursive: true })).filter((f) => f.endsWith(".js"));
    const imports: string[] = [];
    for (const file of files) {
      const text = await readFile(path.join(build, file), "utf8");
      for (const m of text.matchAll(/import\s*\{([^}]*)\}\s*from\s*['"]es-toolkit\/compat['"]/g))
        imports.push(...(m[1] ?? "").split(",").map((name) => name.trim()));
      expect(text).not.toMatch(/import\s+[\w*][^{]*from\s*['"]es-toolkit\/compat['"]/);
    }
    expect(imports.length).toBeGreaterThan(0);
    expect(new Set(imports)).toEqual(new Set(["throttle"]));
  });
});
