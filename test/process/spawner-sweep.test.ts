/**
 * `sweep` is honoured only by a spawner inside bwrap's PID namespace whose
 * parent is the namespace's init (decision 0059): there it SIGKILLs the
 * namespace's orphans; a spawner told "namespace" whose parent is not pid 1
 * (as on the host, where pid 1 is the host's init and a sweep would kill the
 * machine's daemons) ignores it. Both cases run inside a PID namespace of
 * their own (bwrap), so that even a sweep that should not have happened
 * could only reach this test's processes. The same for the Node script,
 * whose "host" argument refuses sweep.
 */
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { containmentInForce } from "../../source/process/bwrap.js";
import { type BareHelper, bareHelper, KINDS } from "./spawn-helper-kinds.js";
import { Markers, onlyNamed } from "./survivors.js";

const namespace = containmentInForce();
const markers = new Markers();
const helpers: BareHelper[] = [];
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "acai-spawner-sweep-"));
});

afterEach(async () => {
  for (const helper of helpers.splice(0)) helper.close();
  markers.killAll();
  await rm(dir, { recursive: true, force: true });
});

/** The helper's command in a PID namespace of its own; `underShell`: as a child of a shell there, not of its init. */
function inNamespace(underShell: boolean) {
  return (command: string, args: readonly string[]): [string, string[]] => {
    if (namespace.kind !== "namespace") throw new Error("no PID namespace here");
    const inner = underShell
      ? ["/bin/sh", "-c", '"$0" "$@"; exit $?', command, ...args]
      : [command, ...args];
    const box = ["--dev-bind", "/", "/", "--unshare-pid", "--die-with-parent", "--proc", "/proc"];
    return [namespace.bwrap, [...box, "--", ...inner]];
  };
}

/** Lines until the exit line of the run started last (`sweep` was read before it). */
async function untilExit(helper: BareHelper): Promise<void> {
  for (;;) if ((await helper.nextLine()).includes('"exit":true')) return;
}

/**
 * Starts an orphan of the namespace's init through `helper`, then asks for a sweep; its pid.
 * The orphan is the marked sleep once exec'd (not the bash forked for it, whose command line
 * has the marker too), found alive before the sweep.
 */
async function orphanThenSweep(helper: BareHelper): Promise<number> {
  const marker = markers.next();
  helper.spawn("/bin/bash", ["-c", `(exec -a ${marker} sleep 300 &)`]);
  await untilExit(helper);
  const orphan = await onlyNamed(marker);
  if (orphan === undefined) throw new Error(`no single process named ${marker}`);
  expect(killed(orphan)).toBe(false);
  helper.sweep();
  helper.spawn("/bin/true", []);
  await untilExit(helper);
  return orphan;
}

const python = KINDS.find((kind) => kind.name === "python")!;
const node = KINDS.find((kind) => kind.name === "node")!;

describe.skipIf(namespace.kind !== "namespace")("sweep", () => {
  it.skipIf(python.missing !== undefined)(
    "the Python spawner told 'namespace', a child of the namespace's init, kills the orphans",
    async () => {
      const helper = await bareHelper(python, dir, {
        extra: ["namespace"],
        wrap: inNamespace(false),
      });
      helpers.push(helper);
      const orphan = await orphanThenSweep(helper);
      expect(killed(orphan)).toBe(true);
    },
  );

  it.skipIf(python.missing !== undefined)(
    "the Python spawner told 'namespace' but not a child of pid 1 ignores it",
    async () => {
      const helper = await bareHelper(python, dir, {
        extra: ["namespace"],
        wrap: inNamespace(true),
      });
      helpers.push(helper);
      const orphan = await orphanThenSweep(helper);
      expect(killed(orphan)).toBe(false);
    },
  );

  it("the Python spawner without 'namespace' and the Node script with 'host' ignore it", async () => {
    for (const kind of [python, node]) {
      if (kind.missing !== undefined) continue;
      await mkdir(join(dir, kind.name));
      const helper = await bareHelper(kind, join(dir, kind.name), { wrap: inNamespace(false) });
      helpers.push(helper);
      const orphan = await orphanThenSweep(helper);
      expect(killed(orphan), kind.name).toBe(false);
    }
  });
});

/**
 * Whether `pid` was SIGKILLed: gone, a zombie, or SIGKILL pending (the kill was sent; it dies when
 * next scheduled) — so that "not swept" is seen at once, not after waiting for a while.
 */
function killed(pid: number): boolean {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, "utf8");
  } catch {
    return true;
  }
  const field = (name: string) => new RegExp(`^${name}:\\s*(\\S+)`, "m").exec(status)?.[1] ?? "";
  if (/^[ZX]/.test(field("State"))) return true;
  const sigkill = 1n << 8n;
  return [field("SigPnd"), field("ShdPnd")].some((mask) => (BigInt(`0x${mask}`) & sigkill) !== 0n);
}
