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

/** `once` for each key: `build(key)` at the key's first use, then that value for it. */
export function onceEach<K, V>(build: (key: K) => V): (key: K) => V {
  const built = new Map<K, V>();
  return (key) => {
    if (!built.has(key)) built.set(key, build(key));
    return built.get(key) as V;
  };
}
