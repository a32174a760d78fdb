import { chmod, mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { identityFile, loadIdentity } from "../../source/relay/identity.js";
import { seal, unseal } from "../../source/relay/nats-envelope.js";
import { UnsafeStoreError } from "../../source/relay/store-files.js";

let dir: string;
const owner = { uid: process.getuid?.() };
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "acai-envelope-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const message = { id: "m1", from: "alice", to: "bob", content: "hi", broadcast: false, sentAt: 1 };
const SUBJECT = "acai.relay.to.bob";

describe("identity", () => {
  it("is created once (mode 0600) and the same key is loaded again", async () => {
    const a = loadIdentity(dir, owner);
    const b = loadIdentity(dir, owner);
    expect(a.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(b.key).toBe(a.key);
    expect((await stat(identityFile(dir))).mode & 0o777).toBe(0o600);
    expect(await readdir(dir)).toEqual(["identity.pem"]);
  });

  it("refuses a key file others can read", async () => {
    loadIdentity(dir, owner);
    await chmod(identityFile(dir), 0o644);
    expect(() => loadIdentity(dir, owner)).toThrow(UnsafeStoreError);
    expect(() => loadIdentity(dir, owner)).toThrow(`chmod 600 ${identityFile(dir)}`);
  });
});

describe("seal / unseal", () => {
  it("a sealed message opens with its sender's key", () => {
    const id = loadIdentity(dir, owner);
    const opened = unseal(JSON.parse(seal(message, SUBJECT, id)), SUBJECT);
    expect(opened).toEqual({ ok: true, message, key: id.key });
  });

  it("refuses plain JSON, a changed body, another key, and another subject", async () => {
    const id = loadIdentity(dir, owner);
    const otherDir = path.join(dir, "other");
    await mkdir(otherDir, { mode: 0o700 });
    const other = loadIdentity(otherDir, owner);
    const sealed = JSON.parse(seal(message, SUBJECT, id));
    expect(unseal(message, SUBJECT)).toMatchObject({
      ok: false,
      why: expect.stringContaining("not signed"),
    });
    const changed = { ...sealed, body: sealed.body.replace('"hi"', '"rm -rf ~"') };
    expect(unseal(changed, SUBJECT)).toMatchObject({
      ok: false,
      why: "its signature does not match",
    });
    expect(unseal({ ...sealed, key: other.key }, SUBJECT)).toMatchObject({ ok: false });
    expect(unseal(sealed, "acai.relay.to.carol")).toMatchObject({ ok: false });
    expect(unseal({ ...sealed, extra: 1 }, SUBJECT)).toMatchObject({ ok: false });
    expect(unseal(null, SUBJECT)).toMatchObject({ ok: false });
  });
});
