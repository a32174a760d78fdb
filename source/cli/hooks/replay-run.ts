/** `acai hooks replay`'s run: the recorded events through the real interceptor with the current hooks. */
import type { AgentEvent } from "../../agent/events.js";
import type { Verdict } from "../../agent/verdicts.js";
import type { HookDefinition } from "../../hooks/contract/definition.js";
import type { AuditEntry } from "../../hooks/run/audit.js";
import type { ProcessRunner } from "../../process/types.js";
import type { CommandContext } from "../command-context.js";
import { CliError } from "../errors.js";
import { EXIT } from "../exit-codes.js";
import type { Inventory } from "./inventory.js";
import type { RecordedEvent } from "./replay-transcript.js";

/** What the current hooks did with each recorded event (by its index), and what they decided. */
export interface Heard {
  runs: Map<number, AuditEntry[]>;
  warnings: Map<number, string[]>;
  now: Map<number, Verdict | undefined>;
}

/** Feeds the recorded events through the real interceptor with `hookSet`; Ctrl-C stops it. */
export async function replayEvents(args: {
  inventory: Inventory;
  hookSet: HookDefinition[];
  recorded: RecordedEvent[];
  io: CommandContext["io"];
  runner: ProcessRunner;
  assumeYes: boolean;
}): Promise<Heard> {
  const { inventory, recorded, io } = args;
  const [{ createHookInterceptor }, { builtinTools }] = await Promise.all([
    import("../../hooks/run/interceptor.js"),
    import("../../tools/registry.js"),
  ]);
  const tools = new Map(builtinTools().map((tool) => [tool.name, tool]));
  const heard: Heard = { runs: new Map(), warnings: new Map(), now: new Map() };
  let current = 0;
  const controller = new AbortController();
  const offInt = io.onSignal("SIGINT", () => controller.abort());
  const offTerm = io.onSignal("SIGTERM", () => controller.abort());
  async function* replayRun(): AsyncGenerator<AgentEvent, void, Verdict | undefined> {
    for (const item of recorded) {
      if (controller.signal.aborted) return;
      current = item.index;
      heard.now.set(item.index, yield item.event);
    }
  }
  const intercept = createHookInterceptor({
    hooks: args.hookSet,
    runner: args.runner,
    env: io.env,
    projectDir: inventory.projectDir,
    acaiHome: inventory.paths.home,
    signal: controller.signal,
    assumeYes: args.assumeYes,
    // Plugin hooks run in the workers the inventory loaded them in.
    ...(inventory.plugins === undefined ? {} : { plugins: inventory.plugins }),
    audit: {
      write(entry) {
        // The report compares hook runs; which hooks were not run is for `acai hooks why`.
        if (!("kind" in entry)) append(heard.runs, current, entry);
      },
    },
    validateToolInput: (toolName, input) => {
      const tool = tools.get(toolName);
      return tool ? tool.validate(input) : { ok: true, value: input };
    },
  });
  try {
    for await (const item of intercept(replayRun())) {
      if (item.type === "hook_warning") append(heard.warnings, current, item.message);
    }
  } finally {
    offInt();
    offTerm();
  }
  if (controller.signal.aborted)
    throw new CliError("replay interrupted; running hooks were stopped.", EXIT.sigint);
  return heard;
}

function append<T>(map: Map<number, T[]>, key: number, value: T): void {
  const list = map.get(key) ?? [];
  list.push(value);
  map.set(key, list);
}
