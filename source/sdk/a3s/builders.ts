/**
 * A3S's builders with A3S's names: `Hook.new(id, type).with_matcher(…)
 * .with_config(…)`, `HookMatcher.tool("Bash").with_command("rm")`,
 * `HookResponse.block(reason)`. Each builder step returns a new value; the
 * objects are plain data (what acai's plugin worker reads of a registration).
 */
import type { HookConfig, HookEventType, HookResponse as Response } from "./types.js";

/** Which events a hook fires on; every filter given must match. */
export class HookMatcher {
  /** An exact tool name. */
  tool?: string;
  /** A glob on the tool's file path (`*.rs`, `src/**\/*.ts`). */
  path_pattern?: string;
  /** A regular expression searched in a Bash command. */
  command_pattern?: string;
  /** One session. */
  session_id?: string;

  /** Matches every event. */
  static new(): HookMatcher {
    return new HookMatcher();
  }
  static tool(name: string): HookMatcher {
    return new HookMatcher().with_tool(name);
  }
  static path(pattern: string): HookMatcher {
    return new HookMatcher().with_path(pattern);
  }
  static command(pattern: string): HookMatcher {
    return new HookMatcher().with_command(pattern);
  }
  static session(id: string): HookMatcher {
    return new HookMatcher().with_session(id);
  }

  with_tool(name: string): HookMatcher {
    return this.with({ tool: name });
  }
  with_path(pattern: string): HookMatcher {
    return this.with({ path_pattern: pattern });
  }
  with_command(pattern: string): HookMatcher {
    return this.with({ command_pattern: pattern });
  }
  with_session(id: string): HookMatcher {
    return this.with({ session_id: id });
  }

  private with(fields: Partial<HookMatcher>): HookMatcher {
    return Object.assign(new HookMatcher(), this, fields);
  }
}

/** A hook: its id, the event type it fires on, its matcher and its config. */
export class Hook {
  matcher?: HookMatcher;
  /** What was set; the rest has A3S's defaults (priority 100, timeout 30000, not async). */
  config: Partial<HookConfig> = {};

  readonly id: string;
  readonly event_type: HookEventType;

  private constructor(id: string, eventType: HookEventType) {
    this.id = id;
    this.event_type = eventType;
  }

  static new(id: string, eventType: HookEventType): Hook {
    return new Hook(id, eventType);
  }

  with_matcher(matcher: HookMatcher | Partial<HookMatcher>): Hook {
    return this.copy({ matcher: Object.assign(new HookMatcher(), matcher) });
  }

  with_config(config: Partial<HookConfig>): Hook {
    return this.copy({ config: { ...this.config, ...config } });
  }

  private copy(fields: Partial<Pick<Hook, "matcher" | "config">>): Hook {
    const next = new Hook(this.id, this.event_type);
    if (this.matcher !== undefined) next.matcher = this.matcher;
    next.config = this.config;
    return Object.assign(next, fields);
  }
}

/** A3S's answer (`action`, and `reason`, `modified` or `retry_delay_ms`). */
export type HookResponse = Response;

/** A3S's answers. */
export const HookResponse = {
  continue_: (): Response => ({ action: "Continue" }),
  continue_with: (modified: Record<string, unknown>): Response => ({
    action: "Continue",
    modified,
  }),
  block: (reason: string): Response => ({ action: "Block", reason }),
  retry: (delayMs: number): Response => ({ action: "Retry", retry_delay_ms: delayMs }),
  skip: (): Response => ({ action: "Skip" }),
};
