/**
 * Trust (refuse, trust, any change revokes) for each source kind, and secrets:
 * a `*_API_KEY`/`*_TOKEN` variable is absent from a hook's environment unless
 * the hook lists it under `env` — through `acai -p`.
 */
import { existsSync } from "node:fs";
import { appendFile, readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type AcaiDirs, makeAcaiDirs, runAcai } from "../support/run-acai.js";
import { modelArgs } from "./helpers.js";
import { installHooks, SOURCE_KINDS, type SourceKind } from "./hooks-support.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

const TRACE = '#!/usr/bin/env bash\ncat >/dev/null\necho ran >> "$HOOK_E2E_DIR/ran"\n';

function acaiP(
  d: AcaiDirs,
  s: FakeOpenAIServer,
  extra: string[] = [],
  env: Record<string, string> = {},
) {
  return runAcai({
    dirs: d,
    args: ["-p", "hi", ...extra, ...modelArgs("chat", s)],
    baseUrl: s.url,
    env: { HOOK_E2E_DIR: d.root, ...env },
  });
}

/** The file whose edit must revoke trust, per source kind. */
function hookFile(d: AcaiDirs, kind: SourceKind): string {
  switch (kind) {
    case "executable":
      return path.join(d.cwd, ".acai", "hooks", "tracer");
    case "hook_md":
      return path.join(d.cwd, ".agents", "hooks", "tracer-user_prompt", "HOOK.md");
    case "settings":
      return path.join(d.cwd, ".acai", "settings.json");
    default:
      return kind satisfies never;
  }
}

describe.each(SOURCE_KINDS)("trust of %s project hooks", (kind) => {
  it("refuses untrusted hooks, runs them once trusted, and any change revokes the trust", async () => {
    dirs = await makeAcaiDirs("acai-hooks-trust-");
    await installHooks(dirs, kind, [{ name: "tracer", events: ["user_prompt"], script: TRACE }]);
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const ran = path.join(dirs.root, "ran");

    const refused = await acaiP(dirs, server);
    expect(refused.exitCode).toBe(4);
    expect(refused.stderr).toContain("tracer");
    expect(refused.stderr).toContain("acai hooks trust");
    expect(existsSync(ran)).toBe(false);
    expect(server.requests).toHaveLength(0);

    expect((await runAcai({ dirs, args: ["hooks", "trust"] })).exitCode).toBe(0);
    const trusted = await acaiP(dirs, server);
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect((await readFile(ran, "utf8")).trim().split("\n")).toHaveLength(1);

    // Any change to a hook file or hook setting revokes the trust.
    if (kind === "settings") {
      const settings = JSON.parse(await readFile(hookFile(dirs, kind), "utf8"));
      settings.hooks.user_prompt[0].hooks[0].timeout = 9;
      const { writeFile } = await import("node:fs/promises");
      await writeFile(hookFile(dirs, kind), JSON.stringify(settings));
    } else {
      await appendFile(hookFile(dirs, kind), "\n# edited\n");
    }
    const revoked = await acaiP(dirs, server);
    expect(revoked.exitCode).toBe(4);
    expect((await readFile(ran, "utf8")).trim().split("\n")).toHaveLength(1);

    // The two per-run ways on.
    expect((await acaiP(dirs, server, ["--no-project-hooks"])).exitCode).toBe(0);
    expect((await readFile(ran, "utf8")).trim().split("\n")).toHaveLength(1);
    expect((await acaiP(dirs, server, ["--trust-project-hooks"])).exitCode).toBe(0);
    expect((await readFile(ran, "utf8")).trim().split("\n")).toHaveLength(2);
    // --trust-project-hooks recorded nothing.
    expect((await acaiP(dirs, server)).exitCode).toBe(4);
  });
});

describe.each(SOURCE_KINDS)("secrets and %s hooks", (kind) => {
  it("a secret-looking variable reaches a hook only when its env lists it", async () => {
    dirs = await makeAcaiDirs("acai-hooks-secrets-");
    const dump = (name: string) =>
      `#!/usr/bin/env bash\ncat >/dev/null\nenv > "$HOOK_E2E_DIR/env-${name}"\n`;
    await installHooks(dirs, kind, [
      { name: "plain", events: ["user_prompt"], script: dump("plain") },
      {
        name: "allowed",
        events: ["user_prompt"],
        script: dump("allowed"),
        env: ["DEPLOY_API_KEY"],
      },
    ]);
    server = await startFakeOpenAI(() => ({ text: "ok" }));
    const result = await acaiP(dirs, server, ["--trust-project-hooks"], {
      DEPLOY_API_KEY: "sk-deploy-123",
      GITHUB_TOKEN: "ghp-456",
      DB_PASSWORD: "hunter2",
      PLAIN_SETTING: "visible",
    });
    expect(result.exitCode, result.stderr).toBe(0);
    const plain = await readFile(path.join(dirs.root, "env-plain"), "utf8");
    const allowed = await readFile(path.join(dirs.root, "env-allowed"), "utf8");
    for (const secret of ["sk-deploy-123", "ghp-456", "hunter2", "test-key"]) {
      expect(plain).not.toContain(secret); // test-key is OPENAI_API_KEY
    }
    expect(plain).toContain("PLAIN_SETTING=visible");
    expect(plain).toContain(`ACAI_PROJECT_DIR=${dirs.cwd}`);
    expect(plain).toContain(`CLAUDE_PROJECT_DIR=${dirs.cwd}`);
    expect(plain).toContain("ACAI_HOOK_EVENT=user_prompt");
    expect(plain).toContain("HOOK_ACTION=execute");
    expect(plain).toMatch(/^ACAI_SESSION_ID=.+$/m);
    expect(allowed).not.toContain("ghp-456");
    expect(allowed).not.toContain("hunter2");
    if (kind !== "executable") {
      // Written in a trusted file (HOOK.md, settings): the review showed it.
      expect(allowed).toContain("DEPLOY_API_KEY=sk-deploy-123");
      return;
    }
    // Asked for in a describe answer, which runs only after trust: not confirmed yet,
    // so no secret, and a warning naming the hook and the variable.
    expect(allowed).not.toContain("sk-deploy-123");
    expect(result.stderr).toContain(
      "Project hook allowed (.acai/hooks/allowed) asks for DEPLOY_API_KEY in its describe answer, which you have not confirmed",
    );
    // `acai hooks trust` describes, shows the request and records it as confirmed.
    const trusted = await runAcai({ dirs, args: ["hooks", "trust"] });
    expect(trusted.exitCode, trusted.stderr).toBe(0);
    expect(trusted.stdout).toContain(
      "Secrets the project's hooks and tools ask for in their describe answers",
    );
    expect(trusted.stdout).toContain("  - allowed (.acai/hooks/allowed): DEPLOY_API_KEY");
    const confirmed = await acaiP(dirs, server, [], { DEPLOY_API_KEY: "sk-deploy-123" });
    expect(confirmed.exitCode, confirmed.stderr).toBe(0);
    expect(confirmed.stderr).not.toContain("asks for DEPLOY_API_KEY");
    expect(await readFile(path.join(dirs.root, "env-allowed"), "utf8")).toContain(
      "DEPLOY_API_KEY=sk-deploy-123",
    );
  });
});
