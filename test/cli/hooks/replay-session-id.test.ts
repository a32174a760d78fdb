import { copyFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { modelArgs, transcripts } from "../../e2e/helpers.js";
import { type FakeOpenAIServer, startFakeOpenAI } from "../../support/fake-openai-server.js";
import { type AcaiDirs, acai, tempProject, userHook } from "../commands/helpers.js";

let dirs: AcaiDirs | undefined;
let server: FakeOpenAIServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await dirs?.cleanup();
  dirs = undefined;
});

describe("acai hooks replay <short session id>", () => {
  it("takes the short id `acai hooks log` prints; an ambiguous one lists the sessions", async () => {
    dirs = await tempProject();
    await userHook(
      dirs,
      "guard",
      { name: "guard", events: ["before_tool"], matcher: { tool: "Bash" } },
      'input=$(cat); case "$input" in *"rm -rf"*) echo "guard says no" >&2; exit 2;; esac',
    );
    server = await startFakeOpenAI([
      { toolCalls: [{ name: "Bash", input: { command: "rm -rf build" } }] },
      { text: "done" },
    ]);
    const run = await acai(dirs, ["-p", "clean up", "--yes", ...modelArgs("chat", server)], {
      baseUrl: server.url,
    });
    expect(run.exitCode, run.stderr).toBe(0);

    const log = await acai(dirs, ["hooks", "log"]);
    expect(log.exitCode, log.stderr).toBe(0);
    const short = log.stdout.trim().split("\n")[0]?.split(/\s+/)[2] ?? "";
    expect(short).toMatch(/^[0-9a-f]{8}$/);

    const replayed = await acai(dirs, ["hooks", "replay", short]);
    expect(replayed.stderr).toBe("");
    expect(replayed.exitCode).toBe(0);
    expect(replayed.stdout).toContain("No differences");

    // A second session whose id starts the same way: the prefix no longer says which.
    const [transcript] = await transcripts(dirs.acaiHome);
    const file = transcript as string;
    const twin = path.join(
      path.dirname(file),
      `${path.basename(file).slice(0, 11)}${short}-0000-4000-8000-000000000000.jsonl`,
    );
    await copyFile(file, twin);
    const ambiguous = await acai(dirs, ["hooks", "replay", short]);
    expect(ambiguous.exitCode).toBe(2);
    expect(ambiguous.stderr).toContain(
      `session id ${short} is ambiguous: 2 sessions start with it:`,
    );
    expect(ambiguous.stderr).toContain(path.basename(file));
    expect(ambiguous.stderr).toContain(path.basename(twin));
    expect(ambiguous.stderr).toContain("Give more of the id.");

    // The whole id still names one.
    const whole = path.basename(file).slice(11, -".jsonl".length);
    const exact = await acai(dirs, ["hooks", "replay", whole]);
    expect(exact.exitCode, exact.stderr).toBe(0);

    const none = await acai(dirs, ["hooks", "replay", "zzzzzzzz"]);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain("no transcript zzzzzzzz");
  });
});
