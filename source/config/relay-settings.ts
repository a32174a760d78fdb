/**
 * The `relay` section of settings: which transport carries messages between
 * agents, how acai authenticates to a NATS server, whose messages it takes and
 * what it tells others. Absent: the embedded store under ACAI_HOME (this
 * machine only). Secrets are never written in settings: they are named, as an
 * environment variable or a file (secrets.ts reads them; nothing prints them).
 */
import { z } from "zod";

const NATS_URL_REQUIREMENT = "a NATS server URL, nats://host:4222 (or tls://host:4222)";

/** A file named in settings: absolute, or under the home folder (`~/…`). */
const filePathSchema = z.lazy(() =>
  z
    .string()
    .min(1)
    .max(4096)
    .refine((file) => file.startsWith("/") || file.startsWith("~/"), {
      message: "an absolute path, or one starting with ~/",
    }),
);

/** Where a secret is: `{"env": "NATS_TOKEN"}` or `{"file": "~/.config/nats/token"}`. */
const SecretRefSchema = z.lazy(() =>
  z.union([
    z
      .object({ env: z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name") })
      .strict(),
    z.object({ file: filePathSchema }).strict(),
  ]),
);
export type SecretRef = z.infer<typeof SecretRefSchema>;

const RelayAuthSchema = z.lazy(() =>
  z
    .object({
      /** A bearer token (nats-server `authorization.token`). */
      token: SecretRefSchema.optional(),
      /** A user name and its password. */
      user: z.string().min(1).max(256).optional(),
      password: SecretRefSchema.optional(),
      /** An nkey seed (`SU…`), for nkey authentication. */
      nkeySeed: SecretRefSchema.optional(),
      /** A `.creds` file (JWT and seed), for decentralized (operator) authentication. */
      credsFile: filePathSchema.optional(),
    })
    .strict()
    .refine((auth) => (auth.user === undefined) === (auth.password === undefined), {
      message: "user and password go together",
    })
    .refine(
      (auth) =>
        [auth.token, auth.user, auth.nkeySeed, auth.credsFile].filter((x) => x !== undefined)
          .length === 1,
      { message: "names one kind of credentials: token, user and password, nkeySeed or credsFile" },
    ),
);

const RelayTlsSchema = z.lazy(() =>
  z
    .object({
      /** The CA that signed the server's certificate (default: the system's). */
      caFile: filePathSchema.optional(),
      /** A client certificate and its key: TLS client authentication. */
      certFile: filePathSchema.optional(),
      keyFile: filePathSchema.optional(),
    })
    .strict()
    .refine((tls) => (tls.certFile === undefined) === (tls.keyFile === undefined), {
      message: "certFile and keyFile go together",
    }),
);
export type RelayTls = z.infer<typeof RelayTlsSchema>;

export const RelaySettingsSchema = z.lazy(() =>
  z.object({
    /** A NATS server, for agents on several machines: `nats://host:4222`. */
    url: z
      .string()
      .refine((url) => /^(nats|tls):\/\/[^\s/]+(:\d+)?\/?$/.test(url), {
        message: NATS_URL_REQUIREMENT,
      })
      .refine((url) => !url.includes("@"), {
        message: "credentials do not go in the URL (it is shown in messages); use relay.auth",
      })
      .optional(),
    /** false: this machine's sessions do not join the relay (no name, no messages). Default true. */
    enabled: z.boolean().optional(),
    /** Credentials for the NATS server (required for a server that is not on this machine). */
    auth: RelayAuthSchema.optional(),
    /** TLS to the NATS server (`tls://` URLs use it too). */
    tls: RelayTlsSchema.optional(),
    /** Whose messages are taken: agent names or glob patterns (`build-*`, `*`). See docs/messaging.md. */
    acceptFrom: z.array(z.string().min(1).max(200)).max(100).optional(),
    /** true: `acai.relay.who` answers carry pid, host and folder too (default: the name only). */
    shareDetails: z.boolean().optional(),
  }),
);

export type RelaySettings = z.infer<typeof RelaySettingsSchema>;

/** What a trusted project may not set: credentials, whose messages are taken, what is shared. */
const USER_ONLY = ["auth", "tls", "acceptFrom", "shareDetails"] as const;

/**
 * The relay settings in effect: the project's (once trusted) over the user's,
 * except the user-only keys. The user's credentials go only to the user's own
 * server: a project that names another `url` gets none (and a server off this
 * machine is then refused, nats-auth.ts).
 */
export function effectiveRelaySettings(
  user: RelaySettings | undefined,
  project: RelaySettings | undefined,
  includeProject: boolean,
): RelaySettings {
  const fromProject = includeProject && project ? { ...project } : {};
  for (const key of USER_ONLY) delete fromProject[key];
  const merged: RelaySettings = { ...user, ...fromProject };
  const urlMoved = fromProject.url !== undefined && fromProject.url !== user?.url;
  if (urlMoved) {
    delete merged.auth;
    delete merged.tls;
  }
  return merged;
}
