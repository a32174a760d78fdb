// The AI SDK without its AI Gateway provider (decision 0077). `ai` imports
// `@ai-sdk/gateway` at its top level for one purpose acai never has: a model
// given as a bare string id ("openai/gpt-5") goes to Vercel's AI Gateway. acai
// always hands the SDK a model object (models/resolve.ts), yet every `acai -p`
// start compiled and ran the gateway package and `@vercel/oidc` (~150 kB, ~5 ms
// of CPU here). In the bundle, that import gets the module below: the two error
// classes answer `isInstance` exactly as the gateway's own do (by the same
// `Symbol.for` markers), and reaching the gateway itself throws an error that
// says why. The tsc build keeps the real package.
import { readFile } from "node:fs/promises";

const AI_INDEX = /[\\/]node_modules[\\/]ai[\\/]dist[\\/]index\.js$/;

/** What `ai` takes from the gateway package; anything else stops the build. */
const EXPECTED = ["GatewayAuthenticationError", "GatewayError", "createGateway", "gateway"];

const GATEWAY_IMPORT = /^import\s*\{([^}]*)\}\s*from\s*["']@ai-sdk\/gateway["'];?$/m;

/** The names an import statement's braces bring in (`a as b` counts as `a`). */
function importedNames(braces) {
  return [...new Set(braces.split(",").map((part) => part.trim().split(/\s+as\s+/)[0]))]
    .filter((name) => name !== "")
    .sort();
}

/** The module that stands in for `@ai-sdk/gateway` in the bundle. */
export const NO_GATEWAY = `
const ERROR = Symbol.for("vercel.ai.gateway.error");
const AUTHENTICATION = Symbol.for("vercel.ai.gateway.error.GatewayAuthenticationError");
function unavailable() {
  throw new Error("acai: a model given to the AI SDK as a bare string would go to the AI Gateway, which acai does not bundle; give the model as openai:MODEL or anthropic:MODEL (scripts/bundle-gateway.mjs)");
}
export class GatewayError extends Error {
  static isInstance(error) {
    return typeof error === "object" && error !== null && error[ERROR] === true;
  }
}
export class GatewayAuthenticationError extends GatewayError {
  static isInstance(error) {
    return GatewayError.isInstance(error) && AUTHENTICATION in error;
  }
}
export const gateway = new Proxy(function gateway() {}, { get: unavailable, apply: unavailable });
export function createGateway() {
  unavailable();
}
`;

/** Throws unless `ai`'s index imports exactly the expected names from the gateway package. */
export function checkGatewayImport(file, text) {
  const found = GATEWAY_IMPORT.exec(text);
  const names = found ? importedNames(found[1]) : [];
  if (names.join(",") !== EXPECTED.join(",")) {
    throw new Error(
      `${file} imports ${found ? `{ ${names.join(", ")} }` : "nothing it names"} from @ai-sdk/gateway, not { ${EXPECTED.join(", ")} } as scripts/bundle-gateway.mjs expects: update the stand-in module there (decision 0077)`,
    );
  }
}

/** The esbuild plugin. */
export function noGateway() {
  return {
    name: "acai-no-gateway",
    setup(esbuild) {
      esbuild.onLoad({ filter: AI_INDEX }, async (args) => {
        checkGatewayImport(args.path, await readFile(args.path, "utf8"));
        return undefined;
      });
      esbuild.onResolve({ filter: /^@ai-sdk\/gateway$/ }, () => ({
        path: "@ai-sdk/gateway",
        namespace: "acai-no-gateway",
      }));
      esbuild.onLoad({ filter: /.*/, namespace: "acai-no-gateway" }, () => ({
        contents: NO_GATEWAY,
        loader: "js",
      }));
    },
  };
}
