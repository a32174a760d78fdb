import { describe, expect, it } from "vitest";
import {
  type BwrapContext,
  bwrapArguments,
  FILES_PER_FOLDER,
  MAX_BWRAP_ARGS,
  SandboxPolicyTooLargeError,
} from "../../source/sandbox/bwrap-args.js";
import type { SandboxPolicy } from "../../source/sandbox/policy.js";

const policy: SandboxPolicy = {
  name: "default",
  write: ["/p", "/tmp", "/home/u/.acai/session-env"],
  readOnly: ["/home/u/.acai", "/p/.acai", "/p/.git/hooks", "/p/missing"],
  denyRead: ["/home/u/.ssh", "/home/u/.netrc", "/home/u/.aws"],
  network: { kind: "none" },
};

const files: Record<string, "dir" | "file"> = {
  "/p": "dir",
  "/tmp": "dir",
  "/home/u/.acai": "dir",
  "/home/u/.acai/session-env": "dir",
  "/p/.acai": "dir",
  "/p/.git/hooks": "dir",
  "/home/u/.ssh": "dir",
  "/home/u/.netrc": "file",
  "/real/acai-link-target": "dir",
};

const context: BwrapContext = {
  kind: (p) => files[p] ?? "missing",
  realpath: (p) => p,
};

/** The `--flag a b` triples of an argument list, in order. */
function mounts(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--bind" || a === "--ro-bind") {
      out.push(`${a} ${args[i + 1]} ${args[i + 2]}`);
      i += 2;
    } else if (a === "--tmpfs" || a === "--remount-ro") {
      out.push(`${a} ${args[i + 1]}`);
      i += 1;
    }
  }
  return out;
}

describe("bwrapArguments", () => {
  it("mounts in policy order: root read-only, writable, read-only over it, hidden last; namespaces and no capabilities", () => {
    const args = bwrapArguments(policy, context);
    expect(args.slice(0, 3)).toEqual(["--ro-bind", "/", "/"]);
    for (const flag of ["--unshare-pid", "--die-with-parent", "--unshare-net"])
      expect(args).toContain(flag);
    expect(args.join(" ")).toContain("--cap-drop ALL");
    expect(args.join(" ")).toContain("--proc /proc");
    expect(mounts(args)).toEqual([
      "--ro-bind / /",
      "--bind /p /p",
      "--bind /tmp /tmp",
      "--bind /home/u/.acai/session-env /home/u/.acai/session-env",
      "--ro-bind /home/u/.acai /home/u/.acai",
      "--ro-bind /p/.acai /p/.acai",
      "--ro-bind /p/.git/hooks /p/.git/hooks",
      // Writable inside read-only: bound again after it.
      "--bind /home/u/.acai/session-env /home/u/.acai/session-env",
      "--tmpfs /home/u/.ssh",
      "--remount-ro /home/u/.ssh",
      "--ro-bind /dev/null /home/u/.netrc",
    ]);
  });

  it("skips paths that do not exist, and mounts a link where it points", () => {
    const linked: BwrapContext = {
      kind: (p) => (p === "/p/.acai" ? "dir" : (files[p] ?? "missing")),
      realpath: (p) => (p === "/p/.acai" ? "/real/acai-link-target" : p),
    };
    const text = bwrapArguments(policy, linked).join(" ");
    expect(text).not.toContain("/p/missing");
    expect(text).not.toContain("/home/u/.aws");
    expect(text).toContain("--ro-bind /real/acai-link-target /real/acai-link-target");
  });

  it("network: none unshares it, hosts binds the bridge's socket folder alone and read-only, all keeps the host's", () => {
    expect(bwrapArguments(policy, context)).toContain("--unshare-net");
    const hosts: SandboxPolicy = {
      ...policy,
      network: { kind: "hosts", allow: ["a.example"], deny: [] },
    };
    // In acai's folder of bridges (whatever its name: this user's, or a private one of this
    // acai's): bound alone and read-only over an empty tmpfs of it.
    const own = `/tmp/acai-networks-${process.getuid?.() ?? "user"}-Xy12Ab`;
    const socketDir = `${own}/acai-net-x`;
    const args = bwrapArguments(hosts, { ...context, socketDir, socketParent: own });
    expect(args.slice(args.indexOf("--unshare-net"))).toEqual([
      "--unshare-net",
      "--tmpfs",
      own,
      "--ro-bind",
      `${own}/acai-net-x`,
      `${own}/acai-net-x`,
      "--remount-ro",
      own,
    ]);
    // Without that folder, or one the bridge's folder is not in: the folder itself, read-only.
    for (const socketParent of [undefined, "/tmp"]) {
      expect(
        bwrapArguments(hosts, {
          ...context,
          socketDir,
          ...(socketParent ? { socketParent } : {}),
        }).join(" "),
      ).toMatch(new RegExp(`--unshare-net --ro-bind ${socketDir} ${socketDir}$`));
    }
    const all: SandboxPolicy = { ...policy, network: { kind: "all", deny: [] } };
    expect(bwrapArguments(all, context)).not.toContain("--unshare-net");
  });

  describe("many read-only paths (a trusted set of 10,001 files)", () => {
    const many = (dir: string, n: number) => Array.from({ length: n }, (_, i) => `${dir}/f${i}`);
    const withFiles = (extra: readonly string[]): BwrapContext => {
      const set = new Set(extra);
      return {
        kind: (p) => (set.has(p) ? "file" : (files[p] ?? (p === "/p/scripts" ? "dir" : "missing"))),
        realpath: (p) => p,
      };
    };

    it("a trusted folder is one mount: files under a read-only folder are not bound again", () => {
      const data = many("/p/.acai/hooks/data", 10_001);
      const big = { ...policy, readOnly: [...policy.readOnly, ...data] };
      const args = bwrapArguments(big, withFiles(data));
      expect(args.length).toBeLessThan(60);
      expect(args.join(" ")).not.toContain("/p/.acai/hooks/data");
      expect(mounts(args)).toContain("--ro-bind /p/.acai /p/.acai");
    });

    it("a file under a writable folder inside a read-only one keeps its own mount", () => {
      const file = "/home/u/.acai/session-env/pinned";
      const args = bwrapArguments(
        { ...policy, readOnly: [...policy.readOnly, file] },
        withFiles([file]),
      );
      const m = mounts(args);
      expect(m).toContain(`--ro-bind ${file} ${file}`);
      // after the writable folder's second bind, so it stays read-only
      expect(m.lastIndexOf(`--ro-bind ${file} ${file}`)).toBeGreaterThan(
        m.lastIndexOf("--bind /home/u/.acai/session-env /home/u/.acai/session-env"),
      );
    });

    it("many files in one folder are bound as the folder, never as a writable root", () => {
      const scripts = many("/p/scripts", FILES_PER_FOLDER + 1);
      const root = many("/p", FILES_PER_FOLDER + 1);
      const few = many("/p/few", 2);
      const all = [...scripts, ...root, ...few];
      const m = mounts(bwrapArguments({ ...policy, readOnly: all }, withFiles(all)));
      expect(m).toContain("--ro-bind /p/scripts /p/scripts");
      expect(m.filter((x) => x.includes("/p/scripts/"))).toEqual([]);
      expect(m).not.toContain("--ro-bind /p /p");
      for (const f of [...root, ...few]) expect(m).toContain(`--ro-bind ${f} ${f}`);
    });

    it("a policy bubblewrap cannot take is refused, naming the settings to shorten", () => {
      const hidden = many("/home/u/secrets", MAX_BWRAP_ARGS);
      const huge = { ...policy, denyRead: hidden };
      expect(() => bwrapArguments(huge, withFiles(hidden))).toThrow(SandboxPolicyTooLargeError);
      expect(() => bwrapArguments(huge, withFiles(hidden))).toThrow(
        /more than bubblewrap accepts \(9000\).*sandbox\.filesystem\.denyRead/,
      );
    });
  });
});
