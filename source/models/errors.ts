/**
 * Bad model configuration (unknown provider, missing key, unreadable replay
 * file). `message` is a complete paragraph for the user: what is wrong and
 * what to set; the CLI prints it as is.
 */
export class ModelConfigError extends Error {
  override readonly name = "ModelConfigError";
}
