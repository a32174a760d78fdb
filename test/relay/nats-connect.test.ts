/**
 * openRelay against a real nats-server that requires a user and password:
 * the password is read from the file relay.auth names, a wrong one fails with
 * a message naming relay.url and without the password, and `who` answers
 * carry details only from an agent with relay.shareDetails. Skipped, and
 * said, when nats-server is not installed.
 */
import { randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { RelaySettings } from "../../source/config/relay-settings.js";
import { openRelay } from "../../source/relay/open.js";
import type { RelayTransport } from "../../source/relay/transport.js";
import { type NatsServer, natsServerPath, startNatsServer } from "../support/nats-server.js";

const natsBinary = natsServerPath();
if (natsBinary === undefined) console.warn("nats-connect.test.ts: SKIPPED — no nats-server");

const PASSWORD = randomBytes(12).toString("hex");
let nats: NatsServer | undefined;
let root: string;
const open: RelayTransport[] = [];

beforeAll(async () => {
  if (natsBinary) nats = await startNatsServer(natsBinary, ["--user", "acai", "--pass", PASSWORD]);
  root = await mkdtemp(path.join(os.tmpdir(), "acai-nats-connect-"));
  await writeFile(path.join(root, "pw"), `${PASSWORD}\n`, { mode: 0o600 });
  await writeFile(path.join(root, "wrong"), "not-the-password\n", { mode: 0o600 });
});
afterAll(async () => {
  await nats?.stop();
  await rm(root, { recursive: true, force: true });
});
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

async function relay(home: string, extra: Partial<RelaySettings> = {}, file = "pw") {
  const settings: RelaySettings = {
    url: nats?.url,
    auth: { user: "acai", password: { file: path.join(root, file) } },
    ...extra,
  };
  const opened = await openRelay({
    acaiHome: path.join(root, home),
    settings,
    env: {},
    homeDir: root,
  });
  open.push(opened.transport);
  return opened;
}

function record(name: string) {
  return {
    name,
    sessionId: `s-${name}`,
    pid: process.pid,
    host: os.hostname(),
    cwd: "/secret/project",
    startedAt: 1,
    listening: true,
  };
}

describe.skipIf(natsBinary === undefined)(
  "NATS with user and password",
  { timeout: 60_000 },
  () => {
    it("connects with the password from its file (no warning); a wrong one is refused without showing it", async () => {
      const { warnings } = await relay("a");
      expect(warnings).toEqual([]);
      const error = await relay("b", {}, "wrong").catch((e: unknown) => e as Error);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toContain(
        `cannot reach the NATS server ${nats?.url} (relay.url in settings)`,
      );
      expect((error as Error).message).not.toContain("not-the-password");
    });

    it("who: names only, unless the agent shares its details", async () => {
      const quiet = (await relay("quiet")).transport;
      const sharing = (await relay("open", { shareDetails: true })).transport;
      await quiet.join(record("quiet"), () => {});
      await sharing.join(record("open"), () => {});
      const asker = (await relay("asker")).transport;
      const agents = await asker.agents();
      expect(agents.find((a) => a.name === "quiet")).toEqual({ name: "quiet", listening: true });
      expect(agents.find((a) => a.name === "open")).toMatchObject({
        cwd: "/secret/project",
        pid: process.pid,
      });
    });

    it("an authenticated connection takes a signed message of another ACAI_HOME", async () => {
      const receiver = (await relay("r")).transport;
      const got: string[] = [];
      let arrived: (() => void) | undefined;
      await receiver.join(record("rcv"), (m) => {
        got.push(m.content);
        receiver.settle(m.id);
        arrived?.();
      });
      const sender = (await relay("s")).transport;
      const came = new Promise<void>((resolve) => (arrived = resolve));
      expect(await sender.send({ from: "snd", to: "rcv", content: "over an account" })).toEqual({
        delivered: ["rcv"],
        kept: [],
      });
      await came;
      expect(got).toEqual(["over an account"]);
    });
  },
);
