/**
 * The same exchange as messaging.test.ts over a real nats-server: each agent
 * has its own ACAI_HOME (as on separate machines), so only NATS connects them.
 * The server requires a token (relay.auth names it as an environment
 * variable): agents of separate ACAI_HOMEs are taken because the connection
 * is authenticated (docs/messaging.md). Skipped, and said, when nats-server is
 * not installed (apt-get install nats-server; .ci/run installs it).
 */
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAI } from "../support/fake-openai-server.js";
import { type NatsServer, natsServerPath, startNatsServer } from "../support/nats-server.js";
import {
  type AcaiDirs,
  type AcaiProcess,
  makeAcaiDirs,
  runAcai,
  startAcai,
} from "../support/run-acai.js";
import { exchangeScript, lastUser, listening, modelOf, seen, until } from "./messaging-support.js";

const natsBinary = natsServerPath();
if (natsBinary === undefined) {
  console.warn(
    "messaging-nats.test.ts: SKIPPED — nats-server is not installed (apt-get install nats-server)",
  );
}

let nats: NatsServer | undefined;
let server: FakeOpenAIServer | undefined;
const homes: AcaiDirs[] = [];
const running: AcaiProcess[] = [];

const TOKEN = randomBytes(16).toString("hex");
const tokenEnv = { ACAI_TEST_NATS_TOKEN: TOKEN };

beforeAll(async () => {
  if (natsBinary) nats = await startNatsServer(natsBinary, ["--auth", TOKEN]);
});
afterAll(async () => {
  await nats?.stop();
});
afterEach(async () => {
  for (const p of running.splice(0)) {
    p.child.kill("SIGKILL");
    await p.result;
  }
  await server?.close();
  server = undefined;
  for (const d of homes.splice(0)) await d.cleanup();
});

/** A "machine": its own ACAI_HOME, HOME and project, with relay.url set. */
async function machine(): Promise<AcaiDirs> {
  const dirs = await makeAcaiDirs("acai-nats-e2e-");
  homes.push(dirs);
  await mkdir(dirs.acaiHome, { recursive: true });
  await writeFile(
    path.join(dirs.acaiHome, "settings.json"),
    JSON.stringify({
      relay: { url: nats?.url, auth: { token: { env: "ACAI_TEST_NATS_TOKEN" } } },
    }),
  );
  return dirs;
}

function listen(dirs: AcaiDirs, name: string, args: string[] = []): AcaiProcess {
  if (!server) throw new Error("no model server");
  const p = startAcai({
    dirs,
    args: ["-p", ...args, "--listen", "--name", name, "--model", `openai:${name}`],
    baseUrl: server.url,
    env: tokenEnv,
    timeoutMs: 170_000,
  });
  running.push(p);
  return p;
}

describe.skipIf(natsBinary === undefined)(
  "messages between agents over NATS (a real nats-server)",
  { timeout: 180_000 },
  () => {
    it("two agents on separate homes exchange messages both ways; a broadcast reaches both others; acai send and acai agents work", async () => {
      server = await startFakeOpenAI(exchangeScript);
      const [a, b, c, shell] = [await machine(), await machine(), await machine(), await machine()];
      const bob = listen(b, "bob");
      const carol = listen(c, "carol");
      await Promise.all([listening(bob), listening(carol)]);
      const listed = await runAcai({
        dirs: shell,
        args: ["agents", "--json"],
        env: tokenEnv,
        timeoutMs: 60_000,
      });
      expect(listed.exitCode, listed.stderr).toBe(0);
      const names = (JSON.parse(listed.stdout) as { agents: { name: string }[] }).agents.map(
        (x) => x.name,
      );
      expect(names).toEqual(["bob", "carol"]);
      const taken = await runAcai({
        dirs: a,
        args: ["-p", "hi", "--name", "bob", "--model", "openai:x"],
        baseUrl: server.url,
        env: tokenEnv,
        timeoutMs: 60_000,
      });
      expect(taken.exitCode).toBe(2);
      expect(taken.stderr).toContain("an agent named bob is already running");

      const alice = listen(a, "alice", ["start the exchange"]);
      const requests = server.requests;
      await until("bob to get alice's message", () =>
        seen(requests, "bob", "Hello bob from alice"),
      );
      await until("alice to get bob's answer", () => seen(requests, "alice", "Hi alice, bob here"));
      await until("bob to get the broadcast", () =>
        seen(requests, "bob", "Status check from alice"),
      );
      await until("carol to get the broadcast", () =>
        seen(requests, "carol", "Status check from alice"),
      );
      expect(
        requests.some((r) => modelOf(r) === "carol" && lastUser(r).includes("Hello bob")),
      ).toBe(false);
      const sent = await runAcai({
        dirs: shell,
        args: ["send", "carol", "from a shell on another machine"],
        env: tokenEnv,
        timeoutMs: 60_000,
      });
      expect(sent.exitCode, sent.stderr).toBe(0);
      expect(sent.stdout).toBe("sent to carol\n");
      await until("carol to get the shell's message", () =>
        seen(requests, "carol", "from a shell on another machine"),
      );
      for (const p of [alice, bob, carol]) {
        p.child.kill("SIGTERM");
        const result = await p.result;
        expect(result.exitCode, result.stderr).toBe(143);
      }
      running.splice(0);
    });
  },
);
