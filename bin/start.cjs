// Loaded by acai.cjs once the Node version is known to be new enough.
"use strict";

import("../dist/bundle/main.js").catch(function (error) {
  var missing = error && error.code === "ERR_MODULE_NOT_FOUND";
  process.stderr.write(
    "acai: could not start: " + (error && error.message ? error.message : String(error)) +
      (missing ? " (from a clone, build acai first: npm ci && npm run build)" : "") + "\n"
  );
  process.exit(1);
});
