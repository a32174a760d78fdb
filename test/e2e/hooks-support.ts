/** Shared by the hooks-*.test.ts end-to-end tests: hooks of each source kind around one script. */
import { execFileSync } from "node:child_process";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { AcaiDirs } from "../support/run-acai.js";

export type SourceKind = "executable" | "hook_md" | "settings";
export const SOURCE_KINDS: readonly SourceKind[] = ["executable", "hook_md", "settings"];

export interface HookSpec {
  name: string;
  events: string[];
  /** The program that runs (reads stdin, answers). */
  script: string;
  priority?: number;
  timeoutMs?: number;
  failure?: "open" | "closed";
  env?: string[];
  matcher?: { tool?: string };
}

async function writeExecutable(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  await chmod(file, 0o755);
}

/**
 * Installs `spec` as a project hook of the given kind:
 * - executable: `.acai/hooks/<name>` answering describe, then exec'ing the script;
 * - hook_md: one `.agents/hooks/<name>-<event>/` folder per event (HOOK.md has one trigger);
 * - settings: one entry per event in `.acai/settings.json`.
 */
export async function installHooks(
  dirs: AcaiDirs,
  kind: SourceKind,
  specs: HookSpec[],
): Promise<void> {
  const scripts = path.join(dirs.root, "scripts");
  const settings: Record<string, unknown[]> = {};
  for (const spec of specs) {
    const script = path.join(scripts, `${spec.name}.sh`);
    await writeExecutable(script, spec.script);
    switch (kind) {
      case "executable": {
        const metadata = {
          name: spec.name,
          events: spec.events,
          priority: spec.priority ?? 100,
          timeout_ms: spec.timeoutMs ?? 10_000,
          failure: spec.failure ?? "open",
          env: spec.env ?? [],
          ...(spec.matcher ? { matcher: spec.matcher } : {}),
        };
        await writeExecutable(
          path.join(dirs.cwd, ".acai", "hooks", spec.name),
          `#!/bin/sh\nif [ "$HOOK_ACTION" = describe ]; then\n  echo '${JSON.stringify(metadata)}'\n  exit 0\nfi\nexec '${script}'\n`,
        );
        break;
      }
      case "hook_md":
        for (const event of spec.events) {
          const dir = path.join(dirs.cwd, ".agents", "hooks", `${spec.name}-${event}`);
          const front = [
            `name: ${spec.name}`,
            `trigger: ${event}`,
            `priority: ${spec.priority ?? 100}`,
            `timeout: ${spec.timeoutMs ?? 10_000}`,
            `failure: ${spec.failure ?? "open"}`,
            ...(spec.env?.length ? [`env: [${spec.env.join(", ")}]`] : []),
            ...(spec.matcher?.tool ? ["matcher:", `  tool: "${spec.matcher.tool}"`] : []),
          ];
          await mkdir(dir, { recursive: true });
          await writeFile(path.join(dir, "HOOK.md"), `---\n${front.join("\n")}\n---\nTest hook.\n`);
          await writeExecutable(
            path.join(dir, "scripts", "run.sh"),
            `#!/bin/sh\nexec '${script}'\n`,
          );
        }
        break;
      case "settings":
        for (const event of spec.events) {
          const list = settings[event] ?? [];
          list.push({
            ...(spec.matcher?.tool ? { matcher: spec.matcher.tool } : {}),
            hooks: [
              {
                type: "command",
                command: `'${script}'`,
                name: spec.name,
                timeout: (spec.timeoutMs ?? 10_000) / 1000,
                priority: spec.priority ?? 100,
                failure: spec.failure ?? "open",
                env: spec.env ?? [],
              },
            ],
          });
          settings[event] = list;
        }
        break;
      default:
        return kind satisfies never;
    }
  }
  if (kind === "settings") {
    await mkdir(path.join(dirs.cwd, ".acai"), { recursive: true });
    await writeFile(
      path.join(dirs.cwd, ".acai", "settings.json"),
      JSON.stringify({ hooks: settings }, null, 2),
    );
  }
}

/** Lines of `ps -eo args` that contain the marker (the ps line itself excluded). */
function processesWith(marker: string): string[] {
  const ps = execFileSync("ps", ["-eo", "args"], { encoding: "utf8" });
  return ps.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

/** Polls until no process carries the marker (killed groups may take a moment to vanish). */
export async function expectNoSurvivors(marker: string, timeoutMs = 5000): Promise<string[]> {
  const start = Date.now();
  for (;;) {
    const left = processesWith(marker);
    if (left.length === 0 || Date.now() - start > timeoutMs) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function uniqueMarker(label: string): string {
  return `acai-e2e-${label}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
