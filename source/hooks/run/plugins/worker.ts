/**
 * The worker thread one plugin runs in (hooks.md §6.3, thread.ts starts it):
 * what the plugin prints is dropped, its children's containment is put in
 * place (worker-children.ts), and then plugin-runtime.ts imports the plugin,
 * runs its `register(api)` and calls its handlers, speaking to the host
 * through this thread's port (the messages are listed there). Self-contained
 * on purpose (only `node:` imports and erasable types; its siblings are loaded
 * by URL), so it runs as TypeScript source too.
 *
 * A plugin is trusted code; containment holds what it starts, not what it
 * deliberately undoes.
 */
import { pathToFileURL } from "node:url";
import { parentPort, workerData } from "node:worker_threads";
import type * as Runtime from "./plugin-runtime.js";
import type * as RelayShape from "./relay-shape.js";
import type * as A3sShape from "./worker-a3s.js";
import type * as Children from "./worker-children.js";

// What the plugin prints never reaches acai's terminal or its `-p` output (acai's host does not
// read these streams): dropped here, so nothing piles up either.
process.stdout.write = () => true;
process.stderr.write = () => true;

const port = parentPort;
if (port === null) throw new Error("acai's plugin worker must run in a worker thread");
const data = workerData as { file: string; kind?: string; children?: Children.Children };
const file = String(data.file);

/**
 * The worker's own modules beside it (.ts when this runs as source), each a
 * literal the bundle follows (scripts/bundle-urls.mjs): the children's
 * containment is in place before the plugin is imported.
 */
async function siblings() {
  const source = import.meta.url.endsWith(".ts");
  const urls = source
    ? [
        new URL("./worker-children.ts", import.meta.url),
        new URL("./worker-a3s.ts", import.meta.url),
        new URL("./relay-shape.ts", import.meta.url),
        new URL("./plugin-runtime.ts", import.meta.url),
      ]
    : [
        new URL("./worker-children.js", import.meta.url),
        new URL("./worker-a3s.js", import.meta.url),
        new URL("./relay-shape.js", import.meta.url),
        new URL("./plugin-runtime.js", import.meta.url),
      ];
  const [children, a3s, relay, runtime] = await Promise.all([
    import(urls[0]?.href ?? "") as Promise<typeof Children>,
    import(urls[1]?.href ?? "") as Promise<typeof A3sShape>,
    import(urls[2]?.href ?? "") as Promise<typeof RelayShape>,
    import(urls[3]?.href ?? "") as Promise<typeof Runtime>,
  ]);
  children.containChildren(data.children);
  return { a3s, relay, runtime };
}

async function start(): Promise<void> {
  const channel = port as NonNullable<typeof port>;
  let loaded: Awaited<ReturnType<typeof siblings>>;
  try {
    loaded = await siblings();
  } catch (error) {
    channel.postMessage({ type: "broken", reason: `failed to load: ${String(error)}` });
    return;
  }
  const runtime = loaded.runtime.createPluginRuntime({
    url: pathToFileURL(file).href,
    file,
    kind: data.kind,
    relay: loaded.relay,
    a3s: loaded.a3s,
    post: (message) => channel.postMessage(message),
  });
  channel.on("message", (msg: { type: string; id: number }) => runtime.receive(msg));
  await runtime.load();
}

void start();
