// Loaded into acai with `node --import` by bench/hook-cpu.ts: the process's CPU
// time (process.cpuUsage, all of its threads, not its children) at each model
// request it sends, written as JSON lines to ACAI_BENCH_CPU_FILE at exit. acai
// sends a model request over node:http (decision 0067), whose diagnostics channel
// is `http.client.request.start`; a request through fetch (undici) publishes
// `undici:request:create` instead. Both are watched: one request publishes on one.
import { subscribe } from "node:diagnostics_channel";
import { writeFileSync } from "node:fs";

const file = process.env.ACAI_BENCH_CPU_FILE;
const marks = [];

/** A mark for a request to the Messages API (not its token counting). */
function onRequest(requestPath) {
  const text = String(requestPath ?? "");
  if (text.includes("/v1/messages") && !text.includes("count_tokens")) {
    const { user, system } = process.cpuUsage();
    marks.push((user + system) / 1000);
  }
}

if (file) {
  subscribe("http.client.request.start", ({ request }) => onRequest(request?.path));
  subscribe("undici:request:create", ({ request }) => onRequest(request?.path));
  process.on("exit", () => writeFileSync(file, JSON.stringify(marks)));
}
