// Loaded into acai with `node --import` by bench/hook-cpu.ts: the process's CPU
// time (process.cpuUsage, all of its threads, not its children) at each model
// request it sends (undici's diagnostics channel, which Node's fetch and a
// bundled undici both publish), written as JSON lines to ACAI_BENCH_CPU_FILE at exit.
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

const file = process.env.ACAI_BENCH_CPU_FILE;
const marks = [];
if (file) {
  subscribe("undici:request:create", ({ request }) => {
    if (
      String(request?.path ?? "").includes("/v1/messages") &&
      !String(request.path).includes("count_tokens")
    ) {
      const { user, system } = process.cpuUsage();
      marks.push((user + system) / 1000);
    }
  });
  process.on("exit", () => writeFileSync(file, JSON.stringify(marks)));
}
