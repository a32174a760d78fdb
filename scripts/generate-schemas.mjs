#!/usr/bin/env node
// Writes schemas/*.json from the zod schemas (run after `npm run build`):
//   node scripts/generate-schemas.mjs          write the files
//   node scripts/generate-schemas.mjs --check  exit 1 if a file is missing or out of date
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outDir = path.join(root, "schemas");
const { generateSchemas, schemaFileText } = await import(
  path.join(root, "dist", "sdk", "json-schemas.js")
).catch((error) => {
  console.error(`generate-schemas: build first (npm run build): ${error.message}`);
  process.exit(1);
});

const check = process.argv.includes("--check");
const wanted = new Map(
  Object.entries(generateSchemas()).map(([name, schema]) => [name, schemaFileText(schema)]),
);
const present = (await readdir(outDir).catch(() => [])).filter((name) => name.endsWith(".json"));
const stale = [];
for (const [name, text] of wanted) {
  const current = await readFile(path.join(outDir, name), "utf8").catch(() => undefined);
  if (current !== text) stale.push(name);
}
const extra = present.filter((name) => !wanted.has(name));

if (check) {
  if (stale.length + extra.length === 0) {
    console.log(`schemas/: ${wanted.size} files up to date`);
    process.exit(0);
  }
  for (const name of stale) console.error(`schemas/${name} is out of date`);
  for (const name of extra) console.error(`schemas/${name} is not generated any more`);
  console.error("run: npm run schemas");
  process.exit(1);
}
await mkdir(outDir, { recursive: true });
for (const name of stale) await writeFile(path.join(outDir, name), wanted.get(name));
for (const name of extra) await rm(path.join(outDir, name));
console.log(`schemas/: ${stale.length} written, ${extra.length} removed, ${wanted.size - stale.length} unchanged`);
