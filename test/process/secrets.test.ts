/**
 * The scrubbing policy shared by hooks and dynamic tools, as a table: what is
 * removed (and why), what is kept, and the allow-list.
 */
import { describe, expect, it } from "vitest";
import {
  nameSegments,
  type SecretReason,
  scrubEnvironment,
  secretReason,
  withoutSecrets,
} from "../../source/process/secrets.js";

/** Removed: the cases and their relatives. [name, value, reason] */
const REMOVED: ReadonlyArray<readonly [string, string, SecretReason]> = [
  ["OPENAI_API_KEY", "sk-test", "name"],
  ["ANTHROPIC_API_KEY", "x", "name"],
  ["API_KEY", "x", "name"],
  ["AWS_SECRET_ACCESS_KEY", "x", "name"],
  ["AWS_ACCESS_KEY_ID", "x", "name"],
  ["AWS_SESSION_TOKEN", "x", "name"],
  ["GITHUB_TOKEN", "x", "name"],
  ["GH_TOKEN", "x", "name"],
  ["GH_PAT", "x", "name"],
  ["AZURE_DEVOPS_PAT", "x", "name"],
  ["NPM_TOKEN", "x", "name"],
  ["NODE_AUTH_TOKEN", "x", "name"],
  ["npm_config__authToken", "x", "name"],
  ["NPM_CONFIG__AUTH", "x", "name"],
  ["slack_token", "x", "name"],
  ["GHTOKEN", "x", "name"],
  ["OAUTH2_TOKEN", "x", "name"],
  ["VAULT_TOKEN", "x", "name"],
  ["HF_TOKEN", "x", "name"],
  ["CI_JOB_TOKEN", "x", "name"],
  ["STRIPE_KEY", "x", "name"],
  ["S3_KEY", "x", "name"],
  ["PRIVATE_KEY", "x", "name"],
  ["SSH_PRIVATE_KEY", "x", "name"],
  ["JWT_SIGNING_KEY", "x", "name"],
  ["DB_PASSWORD", "x", "name"],
  ["PGPASSWORD", "x", "name"],
  ["TWINE_PASSWORD", "x", "name"],
  ["MYSQL_PWD", "x", "name"],
  ["LDAP_BIND_PW", "x", "name"],
  ["SMTP_PASS", "x", "name"],
  ["REDIS_PASSWD", "x", "name"],
  ["GPG_PASSPHRASE", "x", "name"],
  ["AWS_SECRET", "x", "name"],
  ["AZURE_CLIENT_SECRET", "x", "name"],
  ["MYSECRETS", "x", "name"],
  ["GCP_CREDENTIALS", "x", "name"],
  ["GOOGLE_APPLICATION_CREDENTIALS", "/home/me/sa.json", "name"],
  ["DOCKER_CREDS", "x", "name"],
  ["SLACK_WEBHOOK_URL", "https://example.com/x", "name"],
  ["DISCORD_WEBHOOK", "x", "name"],
  ["SENTRY_DSN", "https://abc@o1.ingest.sentry.io/1", "name"],
  ["BASIC_AUTH", "x", "name"],
  ["DOCKER_AUTH_CONFIG", "x", "name"],
  ["SESSION_SECRET", "x", "name"],
  ["OP_SESSION_my", "x", "name"],
  ["COOKIE_JAR", "x", "name"],
  ["BEARER", "x", "name"],
  ["TOKEN", "x", "name"],
  ["MY_TOKEN_PATH", "/home/me/.token", "name"],
  ["SSH_AUTH_SOCK", "/tmp/ssh-XXXX/agent.1", "agent-socket"],
  ["SSH_AGENT_PID", "123", "agent-socket"],
  ["GPG_AGENT_INFO", "/run/user/1000/gnupg/S.gpg-agent:0:1", "agent-socket"],
  ["KRB5CCNAME", "FILE:/tmp/krb5cc_1000", "agent-socket"],
  ["DATABASE_URL", "postgres://app:hunter2@db:5432/app", "value"],
  ["REDIS_URL", "redis://:hunter2@cache:6379/0", "value"],
  ["MONGO_URI", "mongodb+srv://u:p@cluster0.example.net/db", "value"],
  ["HTTP_PROXY", "http://me:pw@proxy:3128", "value"],
  ["https_proxy", "http://me:pw@proxy:3128", "value"],
  ["AZURE_STORAGE_CONNECTION_STRING", "DefaultEndpointsProtocol=https;AccountKey=abc==", "value"],
  ["SQL_CONN", "Server=db;Database=app;User Id=sa;Password=hunter2;", "value"],
  ["DEPLOY_MATERIAL", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn…", "value"],
  ["GH_STUFF", "ghp_0123456789abcdefghijABCDEFGHIJ012345", "value"],
  ["SOME_SETTING", "github_pat_11AAAAAAA0abcdefghijklmnop", "value"],
  ["LLM", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "value"],
  ["CHAT", "xoxb-123456789012-abcdefghij", "value"],
  ["AWS_ID", "AKIAIOSFODNN7EXAMPLE", "value"],
  ["NOTIFY_URL", "https://hooks.slack.com/services/T000/B000/XXXX", "value"],
];

/** Kept: what programs and hooks need, and near misses of the word rules. */
const KEPT: ReadonlyArray<readonly [string, string]> = [
  ["PATH", "/usr/local/bin:/usr/bin:/bin"],
  ["HOME", "/home/me"],
  ["USER", "me"],
  ["LOGNAME", "me"],
  ["SHELL", "/bin/bash"],
  ["LANG", "en_US.UTF-8"],
  ["LC_ALL", "C.UTF-8"],
  ["TERM", "xterm-256color"],
  ["COLORTERM", "truecolor"],
  ["TMPDIR", "/tmp"],
  ["PWD", "/home/me/project"],
  ["OLDPWD", "/home/me"],
  ["EDITOR", "vim"],
  ["PAGER", "less"],
  ["DISPLAY", ":0"],
  ["XAUTHORITY", "/run/user/1000/.mutter-Xwaylandauth"],
  ["XDG_RUNTIME_DIR", "/run/user/1000"],
  ["XDG_SESSION_ID", "2"],
  ["XDG_SESSION_TYPE", "wayland"],
  ["DESKTOP_SESSION", "gnome"],
  ["DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/user/1000/bus"],
  ["GPG_TTY", "/dev/pts/1"],
  ["SSH_CONNECTION", "10.0.0.1 5000 10.0.0.2 22"],
  ["KUBECONFIG", "/home/me/.kube/config"],
  ["AWS_PROFILE", "dev"],
  ["AWS_REGION", "eu-west-1"],
  ["OPENAI_BASE_URL", "https://api.openai.com/v1"],
  ["HTTP_PROXY", "http://proxy:3128"],
  ["GIT_REMOTE", "ssh://git@github.com/org/repo.git"],
  ["SOME_URL", "https://example.com:8443/a?b=c@d"],
  ["NODE_OPTIONS", "--max-old-space-size=4096"],
  ["NODE_EXTRA_CA_CERTS", "/etc/ssl/corp.pem"],
  ["SSL_CERT_FILE", "/etc/ssl/cert.pem"],
  ["TOKENIZERS_PARALLELISM", "false"],
  ["TOKENIZER", "bpe"],
  ["KEYBOARD", "us"],
  ["GIT_AUTHOR_NAME", "Me"],
  ["SSH_ASKPASS", "/usr/bin/ksshaskpass"],
  ["PGPASSFILE", "/home/me/.pgpass"],
  ["DOCKER_HOST", "unix:///run/user/1000/docker.sock"],
  ["ACAI_HOME", "/home/me/.acai"],
  ["PLAIN_SETTING", "visible"],
];

describe("secret scrubbing policy", () => {
  it.each(REMOVED)("removes %s (%s) by %s", (name, value, reason) => {
    expect(secretReason(name, value)).toBe(reason);
    expect(withoutSecrets({ [name]: value })).toEqual({});
  });

  it.each(KEPT)("keeps %s=%s", (name, value) => {
    expect(secretReason(name, value)).toBeUndefined();
    expect(withoutSecrets({ [name]: value })).toEqual({ [name]: value });
  });

  it("names what it removed, never the values, and keeps the rest in order", () => {
    const { env, removed } = scrubEnvironment({
      PATH: "/bin",
      GITHUB_TOKEN: "ghp-secret",
      SSH_AUTH_SOCK: "/tmp/agent",
      DATABASE_URL: "postgres://u:pw@h/db",
      LANG: "C",
      GONE: undefined,
    });
    expect(env).toEqual({ PATH: "/bin", LANG: "C" });
    expect(removed).toEqual([
      { name: "GITHUB_TOKEN", reason: "name" },
      { name: "SSH_AUTH_SOCK", reason: "agent-socket" },
      { name: "DATABASE_URL", reason: "value" },
    ]);
    expect(JSON.stringify(removed)).not.toContain("ghp-secret");
  });

  it("passes allow-listed names whatever the reason, by exact name", () => {
    const parent = {
      SLACK_TOKEN: "x",
      SSH_AUTH_SOCK: "/tmp/agent",
      DATABASE_URL: "postgres://u:pw@h/db",
      OPENAI_API_KEY: "sk",
    };
    expect(withoutSecrets(parent, ["SLACK_TOKEN", "SSH_AUTH_SOCK", "DATABASE_URL"])).toEqual({
      SLACK_TOKEN: "x",
      SSH_AUTH_SOCK: "/tmp/agent",
      DATABASE_URL: "postgres://u:pw@h/db",
    });
    expect(withoutSecrets(parent, ["slack_token"])).toEqual({});
  });

  it.each([
    ["npm_config__authToken", ["NPM", "CONFIG", "AUTH", "TOKEN"]],
    ["OAUTH2_TOKEN", ["OAUTH", "TOKEN"]],
    ["GitHubToken", ["GIT", "HUB", "TOKEN"]],
    ["PATH", ["PATH"]],
  ])("splits %s into words", (name, words) => {
    expect(nameSegments(name)).toEqual(words);
  });
});
