/**
 * `{ key: value }` when the value is defined, else `{}` — for spreading an
 * optional field into an object under `exactOptionalPropertyTypes`, where
 * `{ key: undefined }` is not the same as leaving the key out. The one copy
 * (it was written out three times); imports nothing, so any layer may use it.
 */
export function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
