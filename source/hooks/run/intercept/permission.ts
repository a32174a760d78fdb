/**
 * A tool call the agent's permission check wants the user's yes for
 * (`permission_request`, Claude Code's PermissionRequest; docs/permissions.md):
 * its hooks run first, in order, and the first that allows or denies answers
 * for the user; when none does, the user is asked — the same prompt as a hook's
 * `ask` (`askUser`), with the `notification` hooks told — and a headless run
 * denies unless `--yes`. Every denial says why, and the model is told how
 * the user can allow such calls. A write to a protected path
 * (permissions/protected.ts) is the user's alone: its hooks may deny it, but
 * their allow and their changes to the input are ignored, `--yes` does not
 * answer it, and headless it is denied.
 */
import type { AgentEvent } from "../../../agent/events.js";
import type { Verdict } from "../../../agent/verdicts.js";
import { protectedDenial } from "../../../permissions/explain.js";
import { type AskRequest, answerBecause, type InterceptedEvent } from "../activity.js";
import { runChain } from "../chain.js";
import type { Plan } from "../plan.js";
import { chainOptions, type EventParts, verdictOf } from "./handle-event.js";
import type { RunContext } from "./run-context.js";

type PermissionRequest = Extract<AgentEvent, { type: "permission_request" }>;

export async function* permissionRequest(
  ctx: RunContext,
  parts: EventParts,
  agentEvent: PermissionRequest,
  planned: Plan | undefined,
  carried: readonly string[],
): AsyncGenerator<InterceptedEvent, Verdict, undefined> {
  const event = "permission_request";
  const signal = ctx.hookSignal(event);
  if (planned !== undefined && planned.async.length > 0) {
    yield* parts.startAsync(planned.async, event, agentEvent);
  }
  const said = yield* hooksSay(ctx, parts, agentEvent, planned, carried, signal);
  if (said.kind === "answered") return said.verdict;
  const { context, input } = said;
  const withContext = context.length > 0 ? { context } : {};
  if (signal.aborted) return { action: "block", reason: "aborted", ...withContext };
  const request: AskRequest = {
    event,
    reason: agentEvent.reason,
    toolName: agentEvent.toolName,
    toolInput: input === undefined ? agentEvent.input : input.value,
    suggestion: agentEvent.suggestion,
    ...(agentEvent.protected ? { protected: agentEvent.protected } : {}),
  };
  const notification = parts.notifications.onAsk(request);
  if (notification) yield notification;
  const answer = await askThePerson(ctx, request, signal);
  if (answer.kind === "allowed") {
    return {
      action: "allow",
      ...(input === undefined ? {} : { input: input.value }),
      ...withContext,
    };
  }
  const words = agentEvent.protected
    ? protectedDenial(agentEvent.toolName, agentEvent.protected, answer.kind, because(answer))
    : denial(agentEvent, answer);
  return { action: "block", ...words, ...withContext };
}

type HooksSay =
  | { kind: "answered"; verdict: Verdict }
  | { kind: "ask"; context: string[]; input?: { value: unknown } };

/**
 * The permission_request hooks, in order: the first that allows or denies
 * answers; else the user is asked, about the input as the hooks left it. For
 * a protected write a hook may deny it or stop, never approve it or change
 * what is asked.
 */
async function* hooksSay(
  ctx: RunContext,
  parts: EventParts,
  agentEvent: PermissionRequest,
  planned: Plan | undefined,
  carried: readonly string[],
  signal: AbortSignal,
): AsyncGenerator<InterceptedEvent, HooksSay, undefined> {
  const asIs: HooksSay = { kind: "ask", context: [...carried] };
  if (planned === undefined || planned.chain.length === 0) return asIs;
  const event = "permission_request";
  const result = yield* runChain({
    ...chainOptions(ctx, event, agentEvent),
    hooks: planned.chain,
    signal,
  });
  const { verdict } = verdictOf(event, agentEvent, result, carried, parts.retries, 0);
  const isProtected = agentEvent.protected !== undefined;
  switch (verdict.action) {
    case "block":
      return {
        kind: "answered",
        verdict: {
          ...verdict,
          reason: `denied by a permission_request hook: ${verdict.reason}`,
          modelText: `Permission denied by a hook: ${verdict.reason}. Do not try to get around it another way.`,
        },
      };
    case "stop":
      return { kind: "answered", verdict };
    case "allow":
      return isProtected ? asIs : { kind: "answered", verdict };
    case "continue":
      return {
        kind: "ask",
        context: verdict.context ?? [],
        ...(verdict.input === undefined || isProtected ? {} : { input: { value: verdict.input } }),
      };
    default:
      return asIs;
  }
}

type Answer =
  | { kind: "allowed" }
  /** `because`: what the person wants the model told. */
  | { kind: "denied"; because?: string }
  | { kind: "headless" }
  | { kind: "failed" };

function because(answer: Answer): string | undefined {
  return answer.kind === "denied" ? answer.because : undefined;
}

/** `--yes`, else the user; with no one to ask (acai -p), denied. */
async function askThePerson(
  ctx: RunContext,
  request: AskRequest,
  signal: AbortSignal,
): Promise<Answer> {
  // --yes never answers for a protected write: only the person does.
  if (ctx.options.assumeYes && request.protected === undefined) return { kind: "allowed" };
  const askUser = ctx.options.askUser;
  if (askUser === undefined) return { kind: "headless" };
  try {
    const answer = await askUser(request, signal);
    if (answer === true) return { kind: "allowed" };
    const told = answerBecause(answer);
    return told === undefined ? { kind: "denied" } : { kind: "denied", because: told };
  } catch {
    return { kind: "failed" };
  }
}

/** A denial's words: for the user (`reason`) and for the model, with how to allow it. */
function denial(
  ev: PermissionRequest,
  answer: Exclude<Answer, { kind: "allowed" }>,
): { reason: string; modelText: string } {
  const allowIt = `--allowedTools "${ev.suggestion}", a "permissions.allow" rule in settings, or --yes`;
  switch (answer.kind) {
    case "headless":
      return {
        reason: `${ev.toolName} needs permission (${ev.reason}) and acai -p cannot ask: allow it with ${allowIt}`,
        modelText: `Permission denied: ${ev.toolName} needs the user's approval (${ev.reason}), and this non-interactive run cannot ask anyone. Do not try to get around it another way. The user can allow it with ${allowIt}.`,
      };
    case "denied":
      return answer.because === undefined
        ? {
            reason: "denied by you",
            modelText: `Permission denied: the user said no to this ${ev.toolName} call. Do not run it, or something to the same effect, another way; if it is needed, say why and let the user decide.`,
          }
        : {
            reason: `denied by you: ${answer.because}`,
            modelText: `Permission denied: the user said no to this ${ev.toolName} call and says: ${answer.because}\nDo not run it, or something to the same effect, another way; take what the user said into account.`,
          };
    case "failed":
      return {
        reason: "denied: the question could not be asked",
        modelText: `Permission denied: ${ev.toolName} needs the user's approval (${ev.reason}), and the question could not be asked.`,
      };
    default:
      return answer satisfies never;
  }
}
