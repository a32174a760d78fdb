import { describe, expect, it } from "vitest";
import { type BwrapContext, bwrapArguments } from "../../source/sandbox/bwrap-args.js";
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

  it("network: none unshares it, hosts binds the bridge's socket folder, all keeps the host's", () => {
    expect(bwrapArguments(policy, context)).toContain("--unshare-net");
    const hosts: SandboxPolicy = {
      ...policy,
      network: { kind: "hosts", allow: ["a.example"], deny: [] },
    };
    expect(bwrapArguments(hosts, { ...context, socketDir: "/tmp/acai-net-x" }).join(" ")).toContain(
      "--unshare-net --bind /tmp/acai-net-x /tmp/acai-net-x",
    );
    const all: SandboxPolicy = { ...policy, network: { kind: "all", deny: [] } };
    expect(bwrapArguments(all, context)).not.toContain("--unshare-net");
  });
});
