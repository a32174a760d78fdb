/**
 * A value built at its first use and kept: `once(() => z.object(…))` is a
 * module-level schema that costs nothing until something parses with it
 * (decision 0060), and is then one instance for every schema that uses it.
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => {
    built ??= { value: build() };
    return built.value;
  };
}
