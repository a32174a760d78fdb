/**
 * Spawner socket folders (source/process/spawner-folder.ts, decision 0065):
 * the folder carries its acai's pid, sits in the user's folder of them (or,
 * where that is not theirs alone, in a private one of this acai's — decision
 * 0068), and goes without a recursive removal, first at acai's exit;
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
  renameSync,
  rmdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  STALE_AFTER_MS,
  socketFolder,
  spawnersFolder,
  sweepStaleFolders,
} from "../../source/process/spawner-folder.js";
import { acaiSocketFolder } from "../../source/shared/user-folder.js";

let tmp: string;
/** This user's folder of spawner folders in tmp. */
let parent: string;
const servers: Server[] = [];

beforeEach(async () => {
  tmp = await mkdtemp(join(tmpdir(), "acai-folder-test-"));
  parent = spawnersFolder(tmp);
  mkdirSync(parent, { mode: 0o700 });
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

/** A spawner folder `name` in `where` (mode 0700) holding an orphaned socket `s`; its path. */
async function deadFolder(name: string, ageMs?: number, where = parent): Promise<string> {
  const dir = join(where, name);
  mkdirSync(dir, { mode: 0o700 });
  await orphanSocket(join(dir, "s"), ageMs);
  return dir;
}

/** A spawner folder `name` whose socket a server in this process serves; its path. */
async function liveFolder(name: string): Promise<string> {
  const dir = join(parent, name);
  mkdirSync(dir, { mode: 0o700 });
  const server = createServer((conn) => conn.destroy());
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(join(dir, "s"), resolve));
  const then = new Date(Date.now() - 2 * STALE_AFTER_MS);
  utimesSync(join(dir, "s"), then, then);
  return dir;
}

describe("a spawner's socket folder", () => {
  it("is named with acai's pid, in this user's folder of them, and goes with its socket, never with what else is in it", () => {
    rmdirSync(parent);
    const first = socketFolder({ tmpDir: tmp, atExit: () => () => {} });
    expect(first.dir).toMatch(new RegExp(`^${parent}/acai-spawner-${process.pid}-[A-Za-z0-9]{6}$`));
    expect(lstatSync(parent).mode & 0o777).toBe(0o700);
    writeFileSync(join(first.dir, "s"), "");
    first.remove();
    expect(existsSync(first.dir)).toBe(false);

    const second = socketFolder({ tmpDir: tmp, atExit: () => () => {} });
    writeFileSync(join(second.dir, "s"), "");
    writeFileSync(join(second.dir, "other"), "kept");
    second.remove();
    expect(readdirSync(second.dir)).toEqual(["other"]);
  });

  it("goes in a private folder of this acai's (0700, the same for each) where this user's folder of them is open to others, a link or a file", async () => {
    const noExit = { atExit: () => () => {} };
    const cases: Array<(shared: string) => void> = [
      (shared) => chmodSync(shared, 0o755),
      (shared) => {
        rmdirSync(shared);
        mkdirSync(join(dirname(shared), "elsewhere"), { mode: 0o700 });
        symlinkSync(join(dirname(shared), "elsewhere"), shared);
      },
      (shared) => {
        rmdirSync(shared);
        writeFileSync(shared, "not a folder\n");
      },
    ];
    for (const spoil of cases) {
      // A temp folder of its own each: the choice of folder holds for the process.
      const temp = await mkdtemp(join(tmp, "t-"));
      const shared = spawnersFolder(temp);
      mkdirSync(shared, { mode: 0o700 });
      spoil(shared);
      const first = socketFolder({ tmpDir: temp, ...noExit });
      const second = socketFolder({ tmpDir: temp, ...noExit });
      expect(first.parent).toMatch(new RegExp(`^${shared}-[A-Za-z0-9]{6}$`));
      expect(first.parent).toBe(acaiSocketFolder(temp, "acai-spawners"));
      expect(second.parent).toBe(first.parent);
      expect(first.dir).toMatch(
        new RegExp(`^${first.parent}/acai-spawner-${process.pid}-[A-Za-z0-9]{6}$`),
      );
      expect(lstatSync(first.parent).mode & 0o777).toBe(0o700);
      // Nothing goes directly in the temp folder, nor where a link leads.
      expect(readdirSync(temp).filter((name) => name.startsWith("acai-spawner-"))).toEqual([]);
      if (existsSync(join(temp, "elsewhere")))
        expect(readdirSync(join(temp, "elsewhere"))).toEqual([]);
      first.remove();
      second.remove();
      expect(readdirSync(first.parent)).toEqual([]);
    }
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

  it("by default goes first at the process's exit, before the private folder it may lie in", () => {
    // Like the removal of a private folder, registered when that folder was made.
    const earlier = () => {};
    process.once("exit", earlier);
    try {
      const before = process.listeners("exit").length;
      const folder = socketFolder({ tmpDir: tmp });
      const listeners = process.listeners("exit");
      expect(listeners).toHaveLength(before + 1);
      expect(listeners.indexOf(earlier)).toBeGreaterThan(0);
      listeners[0]?.(0);
      expect(existsSync(folder.dir)).toBe(false);
      folder.remove();
      expect(process.listeners("exit")).toHaveLength(before);
    } finally {
      process.off("exit", earlier);
    }
  });
});

describe("the sweep of stale spawner folders", () => {
  it("removes a folder whose acai is gone (its pid dead), and none in the temp folder itself", async () => {
    const name = `acai-spawner-${deadPid()}-aB3xY9`;
    const dead = await deadFolder(name);
    const outside = await deadFolder(name, undefined, tmp);
    const unnamed = await deadFolder("acai-spawner-Qw7Er2", undefined, tmp);
    expect(await sweepStaleFolders(tmp)).toEqual([name]);
    expect(existsSync(dead)).toBe(false);
    expect(readdirSync(parent)).toEqual([]);
    expect(readdirSync(outside)).toEqual(["s"]);
    expect(readdirSync(unnamed)).toEqual(["s"]);
  });

  it("leaves a live acai's folder: a live pid, or a dead-looking pid whose socket is served (another PID namespace)", async () => {
    const ownPid = await deadFolder(`acai-spawner-${process.pid}-aaaaaa`);
    const served = await liveFolder(`acai-spawner-${deadPid()}-bbbbbb`);
    expect(await sweepStaleFolders(tmp)).toEqual([]);
    for (const dir of [ownPid, served]) {
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
    const target = await deadFolder("elsewhere", undefined, tmp);
    symlinkSync(target, join(parent, `acai-spawner-${pid}-link01`));
    const open = await deadFolder(`acai-spawner-${pid}-mode01`);
    chmodSync(open, 0o755);
    const more = await deadFolder(`acai-spawner-${pid}-more01`);
    writeFileSync(join(more, "notes"), "kept");
    const file = join(parent, `acai-spawner-${pid}-file01`);
    mkdirSync(file, { mode: 0o700 });
    writeFileSync(join(file, "s"), "not a socket"); // a connection to it is refused too
    const then = new Date(Date.now() - 2 * STALE_AFTER_MS);
    utimesSync(join(file, "s"), then, then);
    const other = await deadFolder("acai-spawner-sweep-abc123");
    const before = readdirSync(parent).sort();

    expect(await sweepStaleFolders(tmp)).toEqual([]);
    expect(readdirSync(parent).sort()).toEqual(before);
    expect(lstatSync(join(parent, `acai-spawner-${pid}-link01`)).isSymbolicLink()).toBe(true);
    expect(readdirSync(target)).toEqual(["s"]);
    expect(readdirSync(more).sort()).toEqual(["notes", "s"]);
    expect(readdirSync(open)).toEqual(["s"]);
    expect(readdirSync(other)).toEqual(["s"]);
  });

  it("looks into no folder of spawner folders that is a link, or open to others", async () => {
    const name = `acai-spawner-${deadPid()}-eeeeee`;
    const dead = await deadFolder(name);
    chmodSync(parent, 0o755);
    expect(await sweepStaleFolders(tmp)).toEqual([]);
    expect(readdirSync(dead)).toEqual(["s"]);
    chmodSync(parent, 0o700);
    renameSync(parent, join(tmp, "elsewhere"));
    symlinkSync(join(tmp, "elsewhere"), parent);
    expect(await sweepStaleFolders(tmp)).toEqual([]);
    expect(readdirSync(join(tmp, "elsewhere", name))).toEqual(["s"]);
  });

  it("finds nothing to do in a temp folder that is not there", async () => {
    expect(await sweepStaleFolders(join(tmp, "missing"))).toEqual([]);
  });
});
