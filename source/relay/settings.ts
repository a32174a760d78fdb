/**
 * The `relay` section of settings: which transport carries messages between
 * agents. Absent: the embedded store under ACAI_HOME (this machine only).
 */
import { z } from "zod";

export const NATS_URL_REQUIREMENT = "a NATS server URL, nats://host:4222 (or tls://host:4222)";

export const RelaySettingsSchema = z.object({
  /** A NATS server, for agents on several machines: `nats://host:4222`. */
  url: z
    .string()
    .refine((url) => /^(nats|tls):\/\/[^\s/]+(:\d+)?\/?$/.test(url), {
      message: NATS_URL_REQUIREMENT,
    })
    .optional(),
  /** false: this machine's sessions do not join the relay (no name, no messages). Default true. */
  enabled: z.boolean().optional(),
});

export type RelaySettings = z.infer<typeof RelaySettingsSchema>;

/** The relay settings in effect: the project's (once trusted) over the user's. */
export function effectiveRelaySettings(
  user: RelaySettings | undefined,
  project: RelaySettings | undefined,
  includeProject: boolean,
): RelaySettings {
  return { ...user, ...(includeProject ? project : {}) };
}
