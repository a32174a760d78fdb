#!/usr/bin/env node
// Copies tree-sitter-bash's WASM grammar beside the shell analysis in dist/
// (run after `npm run build`): the published package carries it there, so
// tree-sitter-bash (a native addon package) is only a build-time dependency.
import { copyFileSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);
const source = require.resolve("tree-sitter-bash/tree-sitter-bash.wasm");
const target = path.join(root, "dist", "permissions", "shell", "tree-sitter-bash.wasm");
mkdirSync(path.dirname(target), { recursive: true });
copyFileSync(source, target);
