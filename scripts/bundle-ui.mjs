// What the bundle changes in the REPL's UI packages, for the REPL's first frame
// (decision 0073). Neither changes what the UI does: the same widths, the same
// React build acai already loads.
//
// - string-width: ink and the helpers it draws with import it; they get acai's
//   (source/repl/string-width.ts) — the same widths, without the ~36 ms V8 takes
//   to compile the package's emoji pattern at the first draw. That module hands
//   the strings its fast path does not take to the real package, bundled beside it.
// - React's production build: react, react-reconciler and scheduler pick their
//   build from NODE_ENV when they load, and loadUi (source/repl/load-ui.ts)
//   always sets "production" for that moment. Their entries become the
//   production branch alone, so the UI chunk no longer carries the development
//   builds (~830 KB of the chunk's 1.96 MB, read and decoded at every REPL start).
//   An entry that no longer has that shape stays as it is; test/package/bundle.test.ts
//   fails if a development build is back in the bundle.
import { readFile } from "node:fs/promises";
import path from "node:path";

/** The packages whose NODE_ENV-picking entries are narrowed to the production build. */
const REACT_PACKAGES = /[\\/]node_modules[\\/](react|react-reconciler|scheduler)[\\/][^\\/]+\.js$/;

/** `if (process.env.NODE_ENV === 'production') { module.exports = require(P) } else { … require(D) }`. */
const PICKS_BUILD =
  /^'use strict';\s*if \(process\.env\.NODE_ENV === 'production'\) \{\s*module\.exports = require\('(\.\/cjs\/[\w.-]+\.production\.js)'\);\s*\} else \{\s*module\.exports = require\('\.\/cjs\/[\w.-]+\.development\.js'\);\s*\}\s*$/;

/** An entry's text with only its production branch, or undefined if it is not such an entry. */
export function productionEntry(text) {
  const match = PICKS_BUILD.exec(text);
  return match ? `'use strict';\nmodule.exports = require('${match[1]}');\n` : undefined;
}

/** The esbuild plugins: acai's string-width, React's production build. */
export function uiPlugins(sourceDir) {
  const stringWidth = path.join(sourceDir, "repl", "string-width.ts");
  return [
    {
      name: "acai-string-width",
      setup(esbuild) {
        // acai's module's own import of the package is the package.
        esbuild.onResolve({ filter: /^string-width$/ }, (args) =>
          args.importer === stringWidth ? undefined : { path: stringWidth },
        );
      },
    },
    {
      name: "acai-react-production",
      setup(esbuild) {
        esbuild.onLoad({ filter: REACT_PACKAGES }, async (args) => {
          const contents = productionEntry(await readFile(args.path, "utf8"));
          return contents === undefined ? undefined : { contents, loader: "js" };
        });
      },
    },
  ];
}
