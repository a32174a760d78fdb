/**
 * How every benchmark reports a figure: three (or more) runs, each giving a
 * ratio against a baseline measured in the same run; the RESULT line prints
 * the median ratio, every run's ratio (the spread), the machine's load
 * average before and after (os.loadavg, 1 minute), and whether the median
 * meets the target. A figure with no target prints "—" instead of met.
 */
import os from "node:os";

/** The 1-minute load average now. */
export function loadNow(): number {
  return os.loadavg()[0] ?? 0;
}

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
};

/** A target on the ratio: at most (`≤`) or at least (`≥`) a value. */
export interface Target {
  op: "≤" | "≥";
  value: number;
}

export interface ResultLine {
  /** What is measured, e.g. "one matched hook vs a bare spawn". */
  name: string;
  /** One ratio per run (acai / baseline, or whatever the line says). */
  ratios: readonly number[];
  /** Loads sampled while the runs went (at least before and after). */
  loads: readonly number[];
  target?: Target;
  /** Absolute figures of the median run, in words (e.g. "acai 4.2 ms, bare 3.9 ms"). */
  detail?: string;
}

export function meets(value: number, target: Target): boolean {
  return target.op === "≤" ? value <= target.value : value >= target.value;
}

/** The RESULT line for a figure measured over several runs. */
export function formatResult(line: ResultLine): string {
  const mid = median(line.ratios);
  const runs = line.ratios.map((r) => r.toFixed(3)).join(", ");
  const lo = Math.min(...line.ratios);
  const hi = Math.max(...line.ratios);
  const loads = `load ${Math.min(...line.loads).toFixed(2)}–${Math.max(...line.loads).toFixed(2)}`;
  // A negative or missing ratio means the figure drowned in noise (e.g. a time "added" ≤ 0).
  const judged = line.ratios.every((r) => Number.isFinite(r) && r >= 0);
  const verdict = !line.target
    ? "no target"
    : judged
      ? `target ${line.target.op} ${line.target.value}×: ${meets(mid, line.target) ? "met" : "NOT met"}`
      : `target ${line.target.op} ${line.target.value}×: not judged (a run's ratio is negative or missing: noise above the figure)`;
  const detail = line.detail ? `; ${line.detail}` : "";
  return `RESULT ${line.name}: ratio ${mid.toFixed(3)}× (runs ${runs}; spread ${lo.toFixed(3)}–${hi.toFixed(3)}) ${verdict}; ${loads}${detail}`;
}

export function printResult(line: ResultLine): void {
  console.log(formatResult(line));
}

/**
 * Runs `once` `runs` times (three by default), sampling the load before each
 * run and after the last; returns each run's value and the loads.
 */
export async function threeRuns<T>(
  once: (run: number) => Promise<T>,
  runs = 3,
): Promise<{ values: T[]; loads: number[] }> {
  const values: T[] = [];
  const loads: number[] = [];
  for (let run = 0; run < runs; run++) {
    loads.push(loadNow());
    values.push(await once(run));
  }
  loads.push(loadNow());
  return { values, loads };
}

/** `--name N` from the command line, or `fallback`. */
export function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`--${name} needs a positive number (got ${process.argv[at + 1] ?? "nothing"})`);
    process.exit(2);
  }
  return value;
}

/**
 * Which run's absolute figures go in a RESULT line's detail: the run whose
 * ratio is the median (the lower middle one of an even count).
 */
export function medianRunIndex(ratios: readonly number[]): number {
  const order = ratios.map((ratio, index) => ({ ratio, index }));
  order.sort((a, b) => a.ratio - b.ratio);
  return order[Math.floor((order.length - 1) / 2)]?.index ?? 0;
}
