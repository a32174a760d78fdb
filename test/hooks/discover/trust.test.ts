import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { scanHookSources } from "../../../source/hooks/discover/registry.js";
import {
  getProjectTrust,
  isProjectTrusted,
  revokeProjectTrust,
  trustFilePath,
  trustProject,
} from "../../../source/hooks/discover/trust.js";
import { makeSandbox, type Sandbox, writeHook } from "./sources/helpers.js";

let box: Sandbox;
beforeEach(async () => {
  box = await makeSandbox();
});
afterEach(async () => {
  await box.cleanup();
});

describe("project trust", () => {
  it("trusts exactly the recorded hook set; any change revokes it", async () => {
    const hooksDir = path.join(box.projectDir, ".acai", "hooks");
    const guard = await writeHook(hooksDir, "guard", { events: ["before_tool"] });
    const scan = () =>
      scanHookSources({
        projectDir: box.projectDir,
        acaiHome: box.acaiHome,
        homeDir: box.homeDir,
        settingsFiles: [],
      });
    const opts = { acaiHome: box.acaiHome, projectDir: box.projectDir };

    const first = (await scan()).projectFingerprint;
    expect(first).not.toBeNull();
    expect(await isProjectTrusted({ ...opts, fingerprint: first })).toBe(false);

    const record = await trustProject({
      ...opts,
      fingerprint: first as string,
      now: () => new Date("2026-01-02T03:04:05Z"),
    });
    expect(record).toEqual({ fingerprint: first, trustedAt: "2026-01-02T03:04:05.000Z" });
    expect(await isProjectTrusted({ ...opts, fingerprint: first })).toBe(true);

    await writeFile(guard, `${await readFile(guard, "utf8")}# changed\n`);
    const second = (await scan()).projectFingerprint;
    expect(await isProjectTrusted({ ...opts, fingerprint: second })).toBe(false);

    expect(await revokeProjectTrust(opts)).toBe(true);
    expect(await revokeProjectTrust(opts)).toBe(false);
    expect(await isProjectTrusted({ ...opts, fingerprint: first })).toBe(false);
  });

  it("a project without hooks needs no trust", async () => {
    expect(
      await isProjectTrusted({
        acaiHome: box.acaiHome,
        projectDir: box.projectDir,
        fingerprint: null,
      }),
    ).toBe(true);
  });

  it("keys records by the project's real path and keeps other projects' records", async () => {
    const link = path.join(box.root, "link");
    await symlink(box.projectDir, link);
    const other = path.join(box.root, "other");
    await mkdir(other);
    await trustProject({ acaiHome: box.acaiHome, projectDir: link, fingerprint: "a".repeat(64) });
    await trustProject({ acaiHome: box.acaiHome, projectDir: other, fingerprint: "b".repeat(64) });
    expect(
      await isProjectTrusted({
        acaiHome: box.acaiHome,
        projectDir: box.projectDir,
        fingerprint: "a".repeat(64),
      }),
    ).toBe(true);
    expect(await getProjectTrust({ acaiHome: box.acaiHome, projectDir: other })).toMatchObject({
      fingerprint: "b".repeat(64),
    });
    const file = JSON.parse(await readFile(trustFilePath(box.acaiHome), "utf8"));
    expect(Object.keys(file.projects).sort()).toEqual([other, box.projectDir].sort());
  });

  it("treats a corrupt trust file as trusting nothing and replaces it atomically on trust", async () => {
    await writeFile(trustFilePath(box.acaiHome), "{not json");
    const opts = {
      acaiHome: box.acaiHome,
      projectDir: box.projectDir,
      fingerprint: "c".repeat(64),
    };
    expect(await isProjectTrusted(opts)).toBe(false);
    await trustProject(opts);
    expect(await isProjectTrusted(opts)).toBe(true);
    const { readdir } = await import("node:fs/promises");
    expect((await readdir(box.acaiHome)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});
