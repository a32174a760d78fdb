/**
 * `{ key: value }` when the value is defined, else `{}` — for spreading an
 * optional field into an object under `exactOptionalPropertyTypes`, where
 * `{ key: undefined }` is not the same as leaving the key out. The one copy
 * (it was written out three times); imports nothing, so any layer may use it.
 */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/**
 * The same object with every key whose value is `undefined` deleted (in
 * place), for payloads built as one literal with optional fields — the
 * dialect shapes of A3S and OpenClaw. Returns its argument.
 */
export function withoutUndefined<T extends Record<string, unknown>>(fields: T): T {
  for (const key of Object.keys(fields)) if (fields[key] === undefined) delete fields[key];
  return fields;
}
