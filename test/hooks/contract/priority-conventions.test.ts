/**
 * Priorities exactly as each system orders them (hooks.md §5, issue 20 item
 * 3): acai and Agent Hooks run higher first (default 100); A3S and OpenClaw
 * run lower first, A3S's default 100, OpenClaw's 0, each placed at
 * `1000 − p`. Each row is a set of hooks as their authors register them, in
 * configuration order, and the order they must run in — by the one ordering
 * the registry and interceptor use (`compareHooks`).
 */
import { describe, expect, it } from "vitest";
import type { HookDefinition } from "../../../source/hooks/contract/definition.js";
import { compareHooks } from "../../../source/hooks/contract/hook-order.js";
import {
  type RawRegistration,
  registrationHook,
} from "../../../source/hooks/contract/plugin-registration.js";
import { hookMdDefinition } from "../../../source/hooks/discover/sources/hook-md.js";

type Convention = "acai" | "agenthooks" | "a3s" | "openclaw";
/** One hook: its name, its convention and the priority its author wrote (none: the default). */
type Spec = [name: string, convention: Convention, priority?: number];

const source = { file: "/p/.acai/plugins/x.mjs", scope: "project" as const, projectDir: "/p" };

function registration(name: string, convention: Convention, priority?: number): RawRegistration {
  const p = priority === undefined ? {} : { priority };
  switch (convention) {
    case "acai":
      return { shape: "acai", events: ["before_tool"], options: { name, ...p } };
    case "openclaw":
      return { shape: "openclaw", name, events: ["before-tool-call"], options: p };
    case "a3s":
      return { shape: "a3s", name, events: ["PreToolUse"], options: { config: p } };
    case "agenthooks":
      throw new Error("HOOK.md hooks are not registrations");
    default:
      return convention satisfies never;
  }
}

function hookMd(name: string, priority?: number): HookDefinition {
  const data = { name, trigger: "before_tool", ...(priority === undefined ? {} : { priority }) };
  const dir = `/p/.agents/hooks/${name}`;
  const hook = hookMdDefinition(
    {
      scope: "project",
      dir,
      file: `${dir}/HOOK.md`,
      text: "",
      frontmatter: { ok: true, data },
      script: { path: `${dir}/scripts/run.sh`, executable: true, firstLine: "#!/bin/sh" },
    },
    "/p",
  );
  if (!("launch" in hook)) throw new Error(hook.reason);
  return hook;
}

/** The names in run order, the hooks numbered in configuration order as the registry does. */
function runOrder(specs: Spec[], presented: "as configured" | "reversed"): string[] {
  const hooks = specs.map(([name, convention, priority], index) => {
    const hook =
      convention === "agenthooks"
        ? hookMd(name, priority)
        : registrationHook(registration(name, convention, priority), index, source);
    if (typeof hook === "string") throw new Error(hook);
    hook.order = index;
    return hook;
  });
  if (presented === "reversed") hooks.reverse();
  return hooks.sort(compareHooks).map((hook) => hook.name);
}

const rows: [title: string, configured: Spec[], runs: string[]][] = [
  [
    "A3S: explicit 150 and 200 run after a default (100)",
    [
      ["a3s-200", "a3s", 200],
      ["a3s-150", "a3s", 150],
      ["a3s-default", "a3s"],
    ],
    ["a3s-default", "a3s-150", "a3s-200"],
  ],
  [
    "A3S: the seed's security (10, 1) first, logging (1000) last, ties in registration order",
    [
      ["audit-log", "a3s", 1000],
      ["security-check", "a3s", 10],
      ["block-rm-rf", "a3s", 1],
      ["tie-1", "a3s", 50],
      ["tie-2", "a3s", 50],
    ],
    ["block-rm-rf", "security-check", "tie-1", "tie-2", "audit-log"],
  ],
  [
    'OpenClaw: "priority: 100, // Run after other hooks" runs after an unset one',
    [
      ["audit", "openclaw", 100],
      ["unset", "openclaw"],
      ["early", "openclaw", 10],
    ],
    ["unset", "early", "audit"],
  ],
  [
    "acai and Agent Hooks: higher first, default 100, ties in configuration order",
    [
      ["notify", "agenthooks", 10],
      ["plain-md", "agenthooks"],
      ["plain-on", "acai"],
      ["security", "agenthooks", 999],
      ["guard", "acai", 900],
    ],
    ["security", "guard", "plain-md", "plain-on", "notify"],
  ],
  [
    "mixed: each system's security hook before everyone's defaults, logging last",
    [
      ["acai-default", "acai"],
      ["md-default", "agenthooks"],
      ["a3s-default", "a3s"],
      ["claw-default", "openclaw"],
      ["a3s-security", "a3s", 1],
      ["md-security", "agenthooks", 999],
      ["acai-log", "acai", 0],
      ["a3s-log", "a3s", 1000],
      ["claw-log", "openclaw", 100],
    ],
    [
      "claw-default",
      "a3s-security",
      "md-security",
      "a3s-default",
      "claw-log",
      "acai-default",
      "md-default",
      "acai-log",
      "a3s-log",
    ],
  ],
  [
    "mixed: equal places on acai's scale keep configuration order across systems",
    [
      ["a3s-100", "a3s", 100],
      ["acai-900", "acai", 900],
      ["claw-100", "openclaw", 100],
      ["md-900", "agenthooks", 900],
    ],
    ["a3s-100", "acai-900", "claw-100", "md-900"],
  ],
];

describe("priorities as each system orders them", () => {
  it.each(rows)("%s", (_title, configured, runs) => {
    expect(runOrder(configured, "as configured")).toEqual(runs);
    // However the loader hands them over: the order is the configuration's, not the list's.
    expect(runOrder(configured, "reversed")).toEqual(runs);
  });
});
