/**
 * The session's watchers: the path watcher (real fs.watch; changes found by
 * polling for them, never after a fixed delay), file_changed's bounds (inside
 * the project, at most MAX_WATCHED_PATHS, matcher names) and config_change's
 * outcomes, and that every folder watcher opened is closed.
 */
import { mkdir, mkdtemp, realpath, rename, rm, symlink, unlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HookDefinition } from "../../source/hooks/contract/definition.js";
import { claudeMatcherToRegex } from "../../source/hooks/contract/match.js";
import { configSource, watchSettingsFiles } from "../../source/session/config-watch.js";
import { MAX_WATCHED_PATHS, matcherNames, watchFiles } from "../../source/session/file-watch.js";
import {
  createPathWatcher,
  type PathChange,
  type WatchFolder,
  watchFolder,
} from "../../source/session/path-watcher.js";

let root: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(path.join(os.tmpdir(), "acai-watchers-")));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function until(what: string, check: () => boolean): Promise<void> {
  const end = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** fs.watch, counting the watchers opened and closed. */
function countingWatch(): WatchFolder & { open: number; closed: number } {
  const counter = Object.assign(
    ((folder, listener) => {
      counter.open += 1;
      const watcher = watchFolder(folder, listener);
      const close = watcher.close.bind(watcher);
      return Object.assign(watcher, {
        close: () => {
          counter.closed += 1;
          close();
        },
      });
    }) as WatchFolder,
    { open: 0, closed: 0 },
  );
  return counter;
}

describe("the path watcher", () => {
  it("reports add, change and unlink of a watched file, and nothing of its neighbours", async () => {
    const seen: Array<[string, PathChange]> = [];
    const watch = countingWatch();
    const watcher = createPathWatcher({ onChange: (f, c) => seen.push([f, c]), watch });
    const file = path.join(root, "a.txt");
    watcher.set([file]);
    await writeFile(path.join(root, "b.txt"), "b");
    await writeFile(file, "1");
    await until("add", () => seen.some(([, c]) => c === "add"));
    await writeFile(file, "22");
    await until("change", () => seen.some(([, c]) => c === "change"));
    await unlink(file);
    await until("unlink", () => seen.some(([, c]) => c === "unlink"));
    expect(seen.every(([f]) => f === file)).toBe(true);
    expect(seen.map(([, c]) => c).filter((c, i, all) => c !== all[i - 1])).toEqual([
      "add",
      "change",
      "unlink",
    ]);
    watcher.close();
    expect(watch.open).toBe(1);
    expect(watch.closed).toBe(1);
  });

  it("closes a folder's watcher when none of its paths is watched any more, and all on close", async () => {
    await mkdir(path.join(root, "x"));
    await mkdir(path.join(root, "y"));
    const watch = countingWatch();
    const watcher = createPathWatcher({ onChange: () => {}, watch });
    watcher.set([path.join(root, "x", "1"), path.join(root, "y", "2")]);
    expect(watcher.openFolders()).toBe(2);
    watcher.set([path.join(root, "y", "2")]);
    expect(watch.closed).toBe(1);
    watcher.close();
    expect(watch.closed).toBe(watch.open);
    // After close nothing more is opened.
    watcher.set([path.join(root, "x", "1")]);
    expect(watch.open).toBe(2);
  });

  it("says which folder it cannot watch", () => {
    const problems: string[] = [];
    const watcher = createPathWatcher({
      onChange: () => {},
      onProblem: (folder) => problems.push(folder),
    });
    watcher.set([path.join(root, "missing", "f")]);
    expect(problems).toEqual([path.join(root, "missing")]);
    watcher.close();
  });
});

const fileChangedHook = (source?: string): HookDefinition =>
  ({
    id: "h",
    name: "watcher",
    events: ["file_changed"],
    matcher: source === undefined ? {} : { source },
  }) as unknown as HookDefinition;

describe("file_changed's watched paths", () => {
  it("reads a matcher's literal names only", () => {
    expect(matcherNames(".envrc|.env")).toEqual([".envrc", ".env"]);
    // As a Claude Code settings matcher arrives (hooks/contract/match.ts claudeMatcherToRegex).
    expect(matcherNames(claudeMatcherToRegex(".envrc|.env"))).toEqual([".envrc", ".env"]);
    expect(matcherNames(claudeMatcherToRegex("watched\\.txt"))).toEqual(["watched.txt"]);
    expect(matcherNames("*")).toEqual([]);
    expect(matcherNames("^src/.*$")).toEqual([]);
    expect(matcherNames("..|a")).toEqual([]);
    expect(matcherNames(undefined)).toEqual([]);
  });

  it("watches nothing when no hook listens", () => {
    const watch = countingWatch();
    const none = watchFiles({
      projectDir: root,
      hooks: [],
      raise: () => {},
      warn: () => {},
      watch,
    });
    expect(none).toBeUndefined();
    expect(watch.open).toBe(0);
  });

  it("keeps watchPaths inside the project (links followed), at most MAX_WATCHED_PATHS, and closes its watchers", async () => {
    const outside = await realpath(await mkdtemp(path.join(os.tmpdir(), "acai-outside-")));
    try {
      await symlink(outside, path.join(root, "out"));
      const warnings: string[] = [];
      const watch = countingWatch();
      const files = watchFiles({
        projectDir: root,
        hooks: [fileChangedHook(".env")],
        raise: () => {},
        warn: (m) => warnings.push(m),
        watch,
      });
      expect(files?.watched()).toEqual([path.join(root, ".env")]);
      files?.setWatchPaths(
        [path.join(outside, "x"), "out/y", "../z", "inside.txt"],
        fileChangedHook(),
      );
      expect(files?.watched()).toEqual([path.join(root, ".env"), path.join(root, "inside.txt")]);
      expect(warnings).toHaveLength(3);
      expect(warnings[0]).toContain('hook "watcher" asked to watch');
      const many = Array.from({ length: MAX_WATCHED_PATHS + 10 }, (_, i) => `f${i}`);
      files?.setWatchPaths(many, fileChangedHook());
      expect(files?.watched()).toHaveLength(MAX_WATCHED_PATHS);
      expect(warnings.at(-1)).toContain(`more than ${MAX_WATCHED_PATHS}`);
      // An empty answer stops what answers set; the matcher's name stays.
      files?.setWatchPaths([], fileChangedHook());
      expect(files?.watched()).toEqual([path.join(root, ".env")]);
      files?.close();
      expect(watch.closed).toBe(watch.open);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe("config_change's outcomes", () => {
  const location = (file: string, scope: "user" | "project") =>
    ({ path: file, scope, dialect: "acai" }) as const;

  it("names Claude Code's sources", () => {
    expect(configSource(location("/h/.acai/settings.json", "user"))).toBe("user_settings");
    expect(configSource(location("/p/.acai/settings.json", "project"))).toBe("project_settings");
    expect(configSource(location("/p/.claude/settings.local.json", "project"))).toBe(
      "local_settings",
    );
  });

  async function changeOnce(
    scope: "user" | "project",
    verdict: { apply: true } | { apply: false; reason: string },
    trusted = false,
  ) {
    const file = path.join(root, "settings.json");
    await writeFile(file, "{}");
    const warnings: string[] = [];
    let reapplied = 0;
    const gated: unknown[] = [];
    const watch = countingWatch();
    const config = watchSettingsFiles({
      locations: [location(file, scope)],
      loaded: [{ path: file, digest: "not-the-text" }],
      gate: async (event) => {
        gated.push(event);
        return verdict;
      },
      reapplyUser: async () => {
        reapplied += 1;
      },
      projectTrusted: async () => trusted,
      warn: (m) => warnings.push(m),
      watch,
    });
    // Written whole and renamed into place, as editors save: one new text, one change.
    await writeFile(`${file}.tmp`, '{"permissions":{"allow":["Write"]}}');
    await rename(`${file}.tmp`, file);
    await until("the change to be handled", () => warnings.length > 0);
    await config.settled();
    config.close();
    expect(watch.closed).toBe(watch.open);
    return { file, warnings, reapplied, gated };
  }

  it("a user file: gated with its source and path, then re-applied", async () => {
    const { file, warnings, reapplied, gated } = await changeOnce("user", { apply: true });
    expect(gated[0]).toEqual({
      type: "config_change",
      change: { source: "user_settings", filePath: file },
    });
    expect(reapplied).toBe(1);
    expect(warnings[0]).toContain("apply to this session from now on");
  });

  it("blocked: nothing re-applied", async () => {
    const got = await changeOnce("user", { apply: false, reason: "FROZEN" });
    expect(got.reapplied).toBe(0);
    expect(got.warnings[0]).toContain("kept this session's settings (FROZEN)");
  });

  it("a project file: never re-applied, even when the hooks let it through", async () => {
    const got = await changeOnce("project", { apply: true });
    expect(got.reapplied).toBe(0);
    expect(got.warnings[0]).toContain("part of the project's trusted set");
    const retrusted = await changeOnce("project", { apply: true }, true);
    expect(retrusted.reapplied).toBe(0);
    expect(retrusted.warnings[0]).toContain("your trust covers the project as it is now");
  });
});
