/**
 * Spawner socket folders (source/process/spawner-folder.ts, decision 0065):
 * the folder carries its acai's pid and goes without a recursive removal;
 * the sweep collects only a folder whose acai is gone — its socket refuses a
 * connection, is older than a minute, and the pid in its name is dead — and
 * leaves a live acai's (same PID namespace or not), a young one, links, and
 * whatever acai did not make. A socket whose owner is gone is a second name
 * (a hard link) of one whose server closed: it stays, refusing connections.
 */
import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  STALE_AFTER_MS,
  socketFolder,
  sweepStaleFolders,
} from "../../source/process/spawner-folder.js";

let tmp: string;
const servers: Server[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), "acai-folder-test-"));
});

afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  await rm(tmp, { recursive: true, force: true });
});

/** A pid no process has now (a child that ran and was reaped). */
const deadPid = (): number => spawnSync("/bin/true").pid as number;

/** A socket at `path` whose listener is gone (a link to one, after its own name went), its mtime `ageMs` ago. */
async function orphanSocket(path: string, ageMs = 2 * STALE_AFTER_MS): Promise<void> {
  const seed = join(tmp, "seed");
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(seed, resolve));
  linkSync(seed, path);
  await new Promise((resolve) => server.close(resolve));
  expect(lstatSync(path).isSocket()).toBe(true);
  const then = new Date(Date.now() - ageMs);
  utimesSync(path, then, then);
}

/** A spawner folder `name` in tmp (mode 0700) holding an orphaned socket `s`; its path. */
async function deadFolder(name: string, ageMs?: number): Promise<string> {
  const dir = join(tmp, name);
  mkdirSync(dir, { mode: 0o700 });
  await orphanSocket(join(dir, "s"), ageMs);
  return dir;
}

/** A spawner folder `name` whose socket a server in this process serves; its path. */
async function liveFolder(name: string): Promise<string> {
  const dir = join(tmp, name);
  mkdirSync(dir, { mode: 0o700 });
  const server = createServer((conn) => conn.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(join(dir, "s"), resolve));
  const then = new Date(Date.now() - 2 * STALE_AFTER_MS);
  utimesSync(join(dir, "s"), then, then);
  return dir;
}

describe("a spawner's socket folder", () => {
  it("is named with acai's pid and goes with its socket, never with what else is in it", () => {
    const first = socketFolder({ tmpDir: tmp, atExit: () => () => {} });
    expect(first.dir).toMatch(new RegExp(`/acai-spawner-${process.pid}-[A-Za-z0-9]{6}$`));
    writeFileSync(join(first.dir, "s"), "");
    first.remove();
    expect(existsSync(first.dir)).toBe(false);

    const second = socketFolder({ tmpDir: tmp, atExit: () => () => {} });
    writeFileSync(join(second.dir, "s"), "");
    writeFileSync(join(second.dir, "other"), "kept");
    second.remove();
    expect(readdirSync(second.dir)).toEqual(["other"]);
  });

  it("is removed at exit by the cleanup it registered, and that is taken back when removed earlier", () => {
    const registered: Array<() => void> = [];
    let takenBack = 0;
    const atExit = (cleanup: () => void) => {
      registered.push(cleanup);
      return () => takenBack++;
    };
    const folder = socketFolder({ tmpDir: tmp, atExit });
    registered[0]!();
    expect(existsSync(folder.dir)).toBe(false);
    socketFolder({ tmpDir: tmp, atExit }).remove();
    expect(takenBack).toBe(1);
  });
});

describe("the sweep of stale spawner folders", () => {
  it("removes a folder whose acai is gone: with its dead pid in the name, and one named before the pid was", async () => {
    const name = `acai-spawner-${deadPid()}-aB3xY9`;
    const withPid = await deadFolder(name);
    const unnamed = await deadFolder("acai-spawner-Qw7Er2");
    expect((await sweepStaleFolders(tmp)).sort()).toEqual(["acai-spawner-Qw7Er2", name].sort());
    expect(existsSync(withPid)).toBe(false);
    expect(existsSync(unnamed)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("leaves a live acai's folder: a live pid, or a dead-looking pid whose socket is served (another PID namespace)", async () => {
    const ownPid = await deadFolder(`acai-spawner-${process.pid}-aaaaaa`);
    const served = await liveFolder(`acai-spawner-${deadPid()}-bbbbbb`);
    const servedUnnamed = await liveFolder("acai-spawner-cccccc");
    expect(await sweepStaleFolders(tmp)).toEqual([]);
    for (const dir of [ownPid, served, servedUnnamed]) {
      expect(readdirSync(dir), dir).toEqual(["s"]);
    }
  });

  it("leaves a refused socket younger than a minute (its acai may be between bind and listen)", async () => {
    const name = `acai-spawner-${deadPid()}-dddddd`;
    const young = await deadFolder(name, 0);
    expect(await sweepStaleFolders(tmp)).toEqual([]);
    expect(readdirSync(young)).toEqual(["s"]);
    // The same folder a minute later.
    expect(await sweepStaleFolders(tmp, Date.now() + 2 * STALE_AFTER_MS)).toEqual([name]);
  });

  it("leaves what acai did not make: other names, links, other modes, other contents", async () => {
    const pid = deadPid();
    const target = await deadFolder("elsewhere");
    symlinkSync(target, join(tmp, `acai-spawner-${pid}-link01`));
    const open = await deadFolder(`acai-spawner-${pid}-mode01`);
    chmodSync(open, 0o755);
    const more = await deadFolder(`acai-spawner-${pid}-more01`);
    writeFileSync(join(more, "notes"), "kept");
    const file = join(tmp, `acai-spawner-${pid}-file01`);
    mkdirSync(file, { mode: 0o700 });
    writeFileSync(join(file, "s"), "not a socket"); // a connection to it is refused too
    const then = new Date(Date.now() - 2 * STALE_AFTER_MS);
    utimesSync(join(file, "s"), then, then);
    const other = await deadFolder("acai-spawner-sweep-abc123");
    const before = readdirSync(tmp).sort();

    expect(await sweepStaleFolders(tmp)).toEqual([]);
    expect(readdirSync(tmp).sort()).toEqual(before);
    expect(lstatSync(join(tmp, `acai-spawner-${pid}-link01`)).isSymbolicLink()).toBe(true);
    expect(readdirSync(target)).toEqual(["s"]);
    expect(readdirSync(more).sort()).toEqual(["notes", "s"]);
    expect(readdirSync(open)).toEqual(["s"]);
    expect(readdirSync(other)).toEqual(["s"]);
  });

  it("finds nothing to do in a temp folder that is not there", async () => {
    expect(await sweepStaleFolders(join(tmp, "missing"))).toEqual([]);
  });
});
