/**
 * Who answers a hook's `ask` (hooks.md §4): `--yes`, else the user; headless
 * with no one to ask, denied.
 */
import { type AskRequest, type AskUser, answerBecause } from "./activity.js";

export interface ResolveAskOptions {
  askUser?: AskUser;
  assumeYes?: boolean;
  signal: AbortSignal;
}

/** Who answers an `ask`: `--yes`, else the user; headless with no one to ask, denied. */
export async function resolveAsk(
  options: ResolveAskOptions,
  request: AskRequest,
): Promise<{ allowed: boolean; reason: string }> {
  const asked = request.reason;
  if (options.assumeYes) return { allowed: true, reason: asked };
  if (!options.askUser) {
    return {
      allowed: false,
      reason: `${asked} — denied: no one can answer in a non-interactive run (use --yes to allow)`,
    };
  }
  try {
    const answer = await options.askUser(request, options.signal);
    const because = answerBecause(answer);
    // Only a plain yes allows: a no that says why is an object.
    return answer === true
      ? { allowed: true, reason: asked }
      : {
          allowed: false,
          reason: `${asked} — denied by the user${because === undefined ? "" : `, who says: ${because}`}`,
        };
  } catch {
    return { allowed: false, reason: `${asked} — denied (the question could not be asked)` };
  }
}
