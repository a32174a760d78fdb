// The AI SDK's request headers without undici (decision 0067): provider-utils
// builds every request's headers with the global `Headers` (withUserAgentSuffix,
// normalizeHeaders), and Node's global `Headers` loads all of undici on its
// first use (~50 ms of CPU before `acai -p`'s first request). In the bundle,
// that one package's module gets acai's own class under the same name
// (source/models/http/headers.ts), an import that shadows the global there and
// nowhere else; the model requests themselves go over node:http
// (source/models/http/model-fetch.ts). The tsc build keeps the global.
import { readFile } from "node:fs/promises";
import path from "node:path";

const PROVIDER_UTILS = /[\\/]node_modules[\\/]@ai-sdk[\\/]provider-utils[\\/]dist[\\/]index\.js$/;

/** A binding of its own named Headers, which the import would clash with. */
const OWN_HEADERS = /\b(?:const|let|var|function|class)\s+Headers\b|\bimport\s*\{[^}]*\bHeaders\b/;

/** The esbuild plugin; `sourceDir` is acai's source/. */
export function sdkHeaders(sourceDir) {
  const headers = path.join(sourceDir, "models", "http", "headers.ts");
  return {
    name: "acai-sdk-headers",
    setup(esbuild) {
      esbuild.onLoad({ filter: PROVIDER_UTILS }, async (args) => {
        const text = await readFile(args.path, "utf8");
        if (!/\bnew Headers\(/.test(text) || OWN_HEADERS.test(text)) {
          throw new Error(
            `${args.path} no longer uses the global Headers as scripts/bundle-headers.mjs expects: check its new Headers(...) calls and update the plugin (decision 0067)`,
          );
        }
        return {
          contents: `import { PlainHeaders as Headers } from ${JSON.stringify(headers)};\n${text}`,
          loader: "js",
          resolveDir: path.dirname(args.path),
        };
      });
    },
  };
}
