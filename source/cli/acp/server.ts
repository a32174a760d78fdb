/**
 * `acai acp`: acai as an Agent Client Protocol agent on stdin/stdout, for
 * editors (Zed, JetBrains, Neovim plugins; docs/acp.md), with
 * `@agentclientprotocol/sdk`. Each `session/new` prepares an acai session in
 * its `cwd` under the same trust rule as everywhere, `session/load` resumes
 * one (open-session.ts); prompts run through the
 * one loop with its hooks; questions go to the editor; `session/cancel`
 * aborts the turn. stdout carries only the protocol; warnings go to stderr.
 */
import { Readable } from "node:stream";
import * as acp from "@agentclientprotocol/sdk";
import type { CommandContext } from "../command-context.js";
import { EXIT } from "../exit-codes.js";
import type { CliIo } from "../io.js";
import { openSession } from "./open-session.js";
import type { AcpClient, AcpSession } from "./session.js";
import { promptText } from "./updates.js";

export async function runAcp(ctx: CommandContext): Promise<number> {
  const { io } = ctx;
  const sessions = new Map<string, AcpSession>();
  const app = agentApp(io, sessions);
  const connection = app.connect(acp.ndJsonStream(stdoutStream(io), stdinStream(io)));
  const stop = () => connection.close();
  const offs = (["SIGINT", "SIGTERM", "SIGHUP"] as const).map((s) => io.onSignal(s, stop));
  try {
    await connection.closed;
  } finally {
    for (const off of offs) off();
    await Promise.all([...sessions.values()].map((session) => session.close()));
  }
  return EXIT.ok;
}

function agentApp(io: CliIo, sessions: Map<string, AcpSession>): acp.AgentApp {
  const find = (sessionId: string): AcpSession => {
    const session = sessions.get(sessionId);
    if (session === undefined) throw acp.RequestError.sessionNotFound(sessionId);
    return session;
  };
  return acp
    .agent({ name: "acai" })
    .onRequest(acp.methods.agent.initialize, () => ({
      protocolVersion: acp.PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        promptCapabilities: { embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      agentInfo: { name: "acai", version: io.version },
      authMethods: [],
    }))
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const session = await openSession(io, params, clientOf(client));
      sessions.set(session.sessionId, session);
      return { sessionId: session.sessionId };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      if (sessions.has(params.sessionId)) {
        throw acp.RequestError.invalidRequest(undefined, "this session is open already");
      }
      const request = { cwd: params.cwd, mcpServers: params.mcpServers, resume: params.sessionId };
      const session = await openSession(io, request, clientOf(client));
      sessions.set(session.sessionId, session);
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params, signal }) => ({
      stopReason: await find(params.sessionId).prompt(promptText(params.prompt), signal),
    }))
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    });
}

function clientOf(client: acp.AgentContext): AcpClient {
  return {
    update: (notification) => client.notify(acp.methods.client.session.update, notification),
    requestPermission: (request, signal) =>
      client.request(acp.methods.client.session.requestPermission, request, {
        cancellationSignal: signal,
        stopWaitingOnCancel: true,
      }),
  };
}

function stdoutStream(io: CliIo): WritableStream<Uint8Array> {
  const decoder = new TextDecoder();
  return new WritableStream({
    write(chunk) {
      io.stdout.write(decoder.decode(chunk, { stream: true }));
    },
  });
}

function stdinStream(io: CliIo): ReadableStream<Uint8Array> {
  return Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>;
}
