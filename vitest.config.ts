import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Most test files wait on the processes they start (acai, hooks, servers), so
    // twice the cores of a 2-core machine keep it busy: the whole suite took 418 s
    // with 4 workers against 690 s with the default 2 (same clone, quiet machine). More do
    // not help: the suite is CPU-bound (CONTRIBUTING.md), and 6 took 575.6 s against 587.3 s.
    maxWorkers: Math.max(4, availableParallelism()),
    // Each worker runs file after file instead of one fresh process per file
    // (decision 0071): the fork and vitest's environment cost ~650 ms a file, and six
    // unit areas went 83–86 → 45–50 s (paired). Test files leave no state behind: no
    // vi.mock, no stubbed globals or env, no chdir; each has its own temp dirs and ACAI_HOME.
    isolate: false,
  },
});
