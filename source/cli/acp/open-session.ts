/**
 * Opening an ACP session (docs/acp.md): `session/new` prepares an acai
 * session in the editor's `cwd` under the same trust rule as everywhere (an
 * untrusted project is refused with the review as the error's message);
 * `session/load` does the same for an earlier session, resumed by its id as
 * `--resume` does, and first replays its conversation to the editor as
 * session updates. The servers the editor sends are started as the user's
 * own (mcp-servers.ts); those refused are warnings on stderr.
 */
import * as acp from "@agentclientprotocol/sdk";
import { resolveAcaiPaths } from "../../config/paths.js";
import { prepareSession } from "../../session/prepare.js";
import { findSessionFile } from "../../session/resume/find.js";
import { readSessionTranscript } from "../../session/resume/load.js";
import type { PreparedSession } from "../../session/types.js";
import type { CliIo } from "../io.js";
import { classify } from "../session-errors.js";
import { historyUpdates } from "./history.js";
import { clientServers } from "./mcp-servers.js";
import { type AcpClient, AcpSession } from "./session.js";

/** JSON-RPC's range for a server's own errors: the session could not start. */
const SESSION_NOT_STARTED = -32000;

interface OpenRequest {
  cwd: string;
  mcpServers: readonly acp.McpServer[];
  /** `session/load`: the session to resume. */
  resume?: string;
}

export async function openSession(
  io: CliIo,
  request: OpenRequest,
  client: AcpClient,
): Promise<AcpSession> {
  const holder: { session?: AcpSession } = {};
  const servers = clientServers(request.mcpServers);
  try {
    const history = request.resume === undefined ? undefined : readHistory(io, request.resume);
    const prepared = await prepareSession({
      cwd: request.cwd,
      env: io.env,
      homeDir: io.homeDir,
      flags: {
        projectHooks: "require-trust",
        ...(request.resume === undefined ? {} : { resume: { kind: "id", id: request.resume } }),
      },
      clientMcpServers: servers.entries,
      shellGrammarBaselineOnly: true,
      askUser: (ask, signal) =>
        holder.session ? holder.session.ask(ask, signal) : Promise.resolve(false),
    });
    for (const warning of [...servers.refused, ...prepared.warnings]) {
      io.stderr.write(`acai: warning: ${warning}\n`);
    }
    if (history !== undefined) await replay(prepared, history, client);
    holder.session = new AcpSession(prepared, client);
    return holder.session;
  } catch (error) {
    if (error instanceof acp.RequestError) throw error;
    const { message, code } = classify(error, io.env.ACAI_DEBUG === "1");
    throw new acp.RequestError(SESSION_NOT_STARTED, message, { exitCode: code });
  }
}

/** The conversation of the session `id` (its exact id: the editor keeps using it). */
function readHistory(io: CliIo, id: string): acp.SessionUpdate[] {
  const transcriptsDir = transcriptsDirOf(io);
  const found = findSessionFile(id, transcriptsDir);
  if (found.kind !== "found" || found.id !== id) throw acp.RequestError.sessionNotFound(id);
  const read = readSessionTranscript(found.file);
  if (!read.ok) throw acp.RequestError.sessionNotFound(id);
  return historyUpdates(read.record.messages);
}

function transcriptsDirOf(io: CliIo): string {
  return resolveAcaiPaths({ env: io.env, homeDir: io.homeDir, cwd: io.cwd }).transcriptsDir;
}

async function replay(
  prepared: PreparedSession,
  updates: readonly acp.SessionUpdate[],
  client: AcpClient,
): Promise<void> {
  for (const update of updates) await client.update({ sessionId: prepared.sessionId, update });
}
