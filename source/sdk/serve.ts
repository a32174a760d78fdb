/**
 * The persistent side of `defineHook` (hooks.md §6.4, `mode: "persistent"`,
 * `HOOK_ACTION=serve`): reads one JSON request per line, calls the hook for
 * each — requests may overlap, so answers may come in another order — and
 * writes one answer per line with the request's `id`. A request that is not
 * JSON, or a handler that throws, is answered `{"id":…,"error":"…"}`: a
 * failure of that request, handled by the hook's `failure` policy. Ends when
 * stdin ends, after the last answer is written.
 */

/** What `serve` needs of the hook (sdk/hooks.ts's `Hook`). */
export interface Served {
  name: string;
  handle(payload: unknown): Promise<unknown>;
}

export interface ServeIO {
  env: Readonly<Record<string, string | undefined>>;
  stdin: AsyncIterable<string | Uint8Array>;
  stdout: (text: string) => Promise<void>;
  stderr: (text: string) => Promise<void>;
}

export async function serveRequests(hook: Served, io: ServeIO): Promise<number> {
  const running = new Set<Promise<void>>();
  const answer = (id: unknown, line: string): void => {
    const job = handleLine(hook, io, id, line).finally(() => running.delete(job));
    running.add(job);
  };
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of io.stdin) {
    buffered += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (line.trim() !== "") answer(idOf(line), line);
      newline = buffered.indexOf("\n");
    }
  }
  if (buffered.trim() !== "") answer(idOf(buffered), buffered);
  await Promise.all(running);
  return 0;
}

/** The request's id, read without trusting the rest of the line. */
function idOf(line: string): unknown {
  try {
    return (JSON.parse(line) as { id?: unknown }).id;
  } catch {
    return undefined;
  }
}

async function handleLine(hook: Served, io: ServeIO, id: unknown, line: string): Promise<void> {
  if (id === undefined) {
    await io.stderr(`${hook.name}: a request without an "id" was ignored\n`);
    return;
  }
  try {
    const { id: _id, ...payload } = JSON.parse(line) as Record<string, unknown>;
    const answer = await hook.handle(payload);
    const body = answer === undefined ? "" : JSON.stringify(answer).slice(1, -1);
    await io.stdout(`{"id":${JSON.stringify(id)}${body === "" ? "" : `,${body}`}}\n`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (io.env.ACAI_HOOK_DEBUG && error instanceof Error && error.stack) {
      await io.stderr(`${hook.name}: ${error.stack}\n`);
    }
    await io.stdout(`${JSON.stringify({ id, error: `${hook.name}: ${message}` })}\n`);
  }
}
