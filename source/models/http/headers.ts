/**
 * A `Headers` of the WHATWG Fetch standard without undici: Node's global
 * `Headers` loads all of undici on its first use (~50 ms of CPU before acai's
 * first model request; decision 0067). The model requests' fetch
 * (`node-fetch.ts`) answers with these, and in the bundle the AI SDK's
 * provider-utils builds its request headers with this class instead of the
 * global (scripts/bundle-headers.mjs).
 *
 * What the standard's `Headers` does for a request or response guard of
 * "none": names lower-cased and checked against the token grammar, values
 * trimmed of leading and trailing whitespace and refused when they hold a
 * CR, LF or NUL, repeated names joined with ", " (`set-cookie` kept apart
 * for `getSetCookie`), iteration sorted by name.
 */

/** What a `Headers` may be built from: another one, a list of pairs, or a record. */
export type HeadersInput =
  | Iterable<readonly [string, string]>
  | Iterable<readonly string[]>
  | Readonly<Record<string, string>>
  | { forEach(callback: (value: string, name: string) => void): void };

/** RFC 9110 `token`: the characters a header name may hold. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** What a header value may not hold (the standard's "header value" production). */
const FORBIDDEN_IN_VALUE = /[\r\n\0]/;
/** Leading and trailing HTTP whitespace (space, tab, CR, LF). */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;

function checkedName(name: string, method: string): string {
  const text = String(name);
  if (!TOKEN.test(text))
    throw new TypeError(`Headers.${method}: "${text}" is an invalid header name.`);
  return text.toLowerCase();
}

function checkedValue(value: string, name: string, method: string): string {
  const text = String(value).replace(EDGE_WHITESPACE, "");
  if (FORBIDDEN_IN_VALUE.test(text)) {
    throw new TypeError(`Headers.${method}: "${text}" is an invalid header value for "${name}".`);
  }
  return text;
}

export class PlainHeaders {
  /** Lower-cased name → its values, in the order appended. */
  readonly #values = new Map<string, string[]>();

  constructor(init?: HeadersInput | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers: init must be an object.");
    if (isPairs(init)) {
      for (const pair of init) {
        const [name, value, ...rest] = [...pair];
        if (value === undefined || rest.length > 0) {
          throw new TypeError("Headers: each header must be a pair of name and value.");
        }
        this.append(name as string, value);
      }
    } else if (isForEachable(init)) {
      init.forEach((value, name) => {
        this.append(name, value);
      });
    } else {
      for (const [name, value] of Object.entries(init)) this.append(name, value);
    }
  }

  append(name: string, value: string): void {
    const key = checkedName(name, "append");
    const text = checkedValue(value, key, "append");
    const values = this.#values.get(key);
    if (values) values.push(text);
    else this.#values.set(key, [text]);
  }

  set(name: string, value: string): void {
    const key = checkedName(name, "set");
    this.#values.set(key, [checkedValue(value, key, "set")]);
  }

  get(name: string): string | null {
    return this.#values.get(checkedName(name, "get"))?.join(", ") ?? null;
  }

  has(name: string): boolean {
    return this.#values.has(checkedName(name, "has"));
  }

  delete(name: string): void {
    this.#values.delete(checkedName(name, "delete"));
  }

  getSetCookie(): string[] {
    return [...(this.#values.get("set-cookie") ?? [])];
  }

  forEach(
    callback: (value: string, name: string, parent: PlainHeaders) => void,
    thisArg?: unknown,
  ): void {
    for (const [name, value] of this.entries()) callback.call(thisArg, value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    const names = [...this.#values.keys()].sort();
    for (const name of names) {
      const values = this.#values.get(name) ?? [];
      if (name === "set-cookie") for (const value of values) yield [name, value];
      else yield [name, values.join(", ")];
    }
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}

function isPairs(init: object): init is Iterable<readonly string[]> {
  return typeof (init as { [Symbol.iterator]?: unknown })[Symbol.iterator] === "function";
}

function isForEachable(
  init: object,
): init is { forEach(callback: (value: string, name: string) => void): void } {
  return typeof (init as { forEach?: unknown }).forEach === "function";
}
