/**
 * The layer order of source/ (docs/architecture.md, "Layers"), checked by
 * `npm run layers` (part of `npm test`): a folder imports only folders on a
 * lower line, never one on its own line or above; hooks/ imports only
 * downwards between its rooms too; no import cycle anywhere (type-only links
 * aside). dependency-cruiser reads the imports (type-only ones and `import()`
 * included).
 *
 * Top to bottom. Folders on one line do not import each other.
 */
const LAYERS = [
  ["cli"],
  ["repl", "embed"],
  ["session"],
  ["telemetry"],
  ["relay", "memory"],
  ["sdk"],
  ["hooks"],
  ["project"],
  ["subagents", "mcp", "models", "sandbox"],
  ["agent"],
  ["tools"],
  ["patterns", "process"],
  ["config"],
  ["permissions"],
  ["shared", "sqlite", "terminal"],
];

/** hooks/ in three rooms, top to bottom. */
const HOOK_ROOMS = [["run"], ["discover"], ["contract"]];

/**
 * Imports that run up a line on purpose, each with its reason. Only a
 * type-only import can be excused: nothing of the upper layer runs.
 */
const EXCUSED = [
  {
    layer: "tools",
    from: "^source/tools/(types|builtin/task-types)\\.ts$",
    to: "^source/agent/(events|verdicts)\\.ts$",
    why: "a streaming tool (Task) yields the agent's own events and gets their verdicts",
  },
];

const alt = (names) => `(${names.join("|")})`;

function upwardRule(prefix, layers, i, name) {
  const line = layers[i];
  const above = layers.slice(0, i + 1).flat();
  const below = layers.slice(i + 1).map((l) => l.join(" "));
  return {
    name: `${name}-${line.join("-")}`,
    comment: `${line.join(", ")} may import only what stands below it: ${below.join(" / ") || "nothing"}`,
    severity: "error",
    from: { path: `^${prefix}${alt(line)}/` },
    // $1: the importing folder itself, which is no crossing.
    to: { path: `^${prefix}${alt(above)}/`, pathNot: [`^${prefix}$1/`] },
  };
}

function upwardRules(prefix, layers, name) {
  return layers.map((_, i) => {
    const rule = upwardRule(prefix, layers, i, name);
    rule.from.pathNot = EXCUSED.map((e) => e.from);
    return rule;
  });
}

/** An excused file keeps its layer's rule but for its one target, which it may import for types only. */
function excusedRules() {
  return EXCUSED.flatMap((e, n) => {
    const i = LAYERS.findIndex((line) => line.includes(e.layer));
    const rule = upwardRule("source/", LAYERS, i, `excused-${n}`);
    rule.from = { path: e.from };
    rule.to.pathNot = [`^source/${e.layer}/`, e.to];
    return [
      rule,
      {
        name: `excused-${n}-type-only`,
        comment: `excused upward import (${e.why}): type-only, never a value`,
        severity: "error",
        from: { path: e.from },
        to: { path: e.to, dependencyTypesNot: ["type-only"] },
      },
    ];
  });
}

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "an import cycle that runs at load time (type-only links are erased, as Biome's noImportCycles sees it)",
      severity: "error",
      from: { path: "^source/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "no-unresolvable",
      comment: "an import that names no file (the check would not see where it goes)",
      severity: "error",
      from: { path: "^source/" },
      // Relative ones only: packages with export conditions (ink) resolve for Node, not here.
      to: { couldNotResolve: true, path: "^[.]" },
    },
    {
      name: "unplaced",
      comment: "a folder of source/ (or a file of hooks/ outside its rooms) that the layer order does not place",
      severity: "error",
      from: {
        path: "^source/",
        pathNot: [`^source/${alt(LAYERS.flat())}/`, "^source/[^/]+$"],
      },
      to: {},
    },
    {
      name: "unplaced-in-hooks",
      comment: "a file of hooks/ outside its three rooms",
      severity: "error",
      from: { path: "^source/hooks/[^/]+$" },
      to: {},
    },
    {
      name: "telemetry-loaded-only-when-on",
      comment:
        "the OpenTelemetry SDK loads only when telemetry is on: outside telemetry/, only config.ts may be imported as a value; the rest is import() or types",
      severity: "error",
      from: { path: "^source/", pathNot: "^source/telemetry/" },
      to: {
        path: "^source/telemetry/",
        pathNot: "^source/telemetry/config\\.ts$",
        dependencyTypesNot: ["type-only", "dynamic-import"],
      },
    },
    {
      name: "otel-only-in-telemetry",
      comment: "only telemetry/ imports @opentelemetry packages (loaded when telemetry is on)",
      severity: "error",
      from: { path: "^source/", pathNot: "^source/telemetry/" },
      to: { path: "@opentelemetry/" },
    },
    ...upwardRules("source/", LAYERS, "layer"),
    ...upwardRules("source/hooks/", HOOK_ROOMS, "hooks-room"),
    ...excusedRules(),
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(dist|node_modules)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    combinedDependencies: false,
    reporterOptions: { text: { highlightFocused: true } },
  },
};
