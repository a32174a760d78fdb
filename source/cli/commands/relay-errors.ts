import { RelayError } from "../../relay/message.js";
import { MailboxFullError } from "../../relay/store.js";
import { CliError, UsageError } from "../errors.js";
import { EXIT } from "../exit-codes.js";

/** A relay failure as a CliError (one line, naming what to fix); other errors go on. */
export function relayFailure(settings: { url?: string }) {
  return (error: unknown): never => {
    if (error instanceof RelayError) throw new UsageError(error.message);
    if (error instanceof MailboxFullError) throw new CliError(error.message, EXIT.error);
    if (settings.url !== undefined) {
      const why = error instanceof Error ? error.message : String(error);
      throw new CliError(
        `the NATS server of relay.url (${settings.url}) failed: ${why}`,
        EXIT.error,
      );
    }
    throw error;
  };
}
