import module from "node:module";

/**
 * Loads the REPL's UI modules (ink, React, yoga) for the first frame, minus two
 * costs that have nothing to do with drawing a prompt (measured in bench/repl.ts):
 *
 * - ink imports `throttle` from the `es-toolkit/compat` barrel, which loads
 *   ~1,300 modules (~100 ms warm). A resolve hook points that one import at
 *   the package's own `es-toolkit/compat/throttle` entry.
 * - yoga's Emscripten loader fetches its wasm from a `data:` URL when `fetch`
 *   exists, which loads undici (~45 ms); without `fetch` it decodes the same
 *   bytes itself. `fetch` is hidden only while the UI modules evaluate.
 *
 * React and its reconciler pick their production build from NODE_ENV when they
 * load: it renders a streamed token in about half the CPU time of the
 * development build. NODE_ENV is set for that moment only, so tools and hooks
 * see the user's own.
 */
export async function loadUi(): Promise<typeof import("./mount.js")> {
  installInkResolveShortcut();
  const restoreFetch = hideFetch();
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = "production";
  try {
    return await import("./mount.js");
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    restoreFetch();
  }
}

let installed = false;

/** Idempotent; a Node without `module.registerHooks` just loads the whole barrel. */
function installInkResolveShortcut(): void {
  if (installed || typeof module.registerHooks !== "function") return;
  installed = true;
  module.registerHooks({
    resolve(specifier, context, next) {
      if (specifier !== "es-toolkit/compat" || !isInk(context.parentURL)) {
        return next(specifier, context);
      }
      try {
        const entry = next("es-toolkit/compat/throttle", context);
        return { url: throttleShim(entry.url), format: "module", shortCircuit: true };
      } catch {
        return next(specifier, context);
      }
    },
  });
}

function isInk(parentURL: string | undefined): boolean {
  return parentURL !== undefined && /\/node_modules\/ink\/build\//.test(parentURL);
}

/** ink imports `{ throttle }`; the package's per-function entry exports it as default. */
function throttleShim(entryUrl: string): string {
  return `data:text/javascript,export{default as throttle}from${encodeURIComponent(JSON.stringify(entryUrl))};`;
}

function hideFetch(): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "fetch");
  if (!descriptor?.configurable) return () => {};
  Reflect.deleteProperty(globalThis, "fetch");
  return () => {
    Object.defineProperty(globalThis, "fetch", descriptor);
  };
}
