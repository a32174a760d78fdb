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
    // with 4 workers against 690 s with the default 2 (same clone, quiet machine).
    maxWorkers: Math.max(4, availableParallelism()),
    // Each worker runs file after file instead of one fresh process per file: the
    // fork and vitest's environment cost ~650 ms a file (341 files), and the suite
    // went 709 → 634 s. The tests share no state through modules (no vi.mock, no
    // stubbed globals or env, no chdir); each makes its own temp dirs and ACAI_HOME.
    isolate: false,
  },
});
