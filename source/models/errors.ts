/**
 * Bad model configuration (unknown provider, missing key, unreadable replay
 * file). `message` is a complete paragraph for the user: what is wrong and
 * what to set; the CLI prints it as is.
 */
export class ModelConfigError extends Error {
  override readonly name = "ModelConfigError";
  /** A bad value the user gave (e.g. `OPENAI_BASE_URL`): a usage error (exit 2), not a runtime one. */
  readonly badInput: boolean;
  constructor(message: string, options: { badInput?: boolean } = {}) {
    super(message);
    this.badInput = options.badInput ?? false;
  }
}
