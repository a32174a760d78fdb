/**
 * A search query from the model or the user, as a safe FTS5 query: its words
 * (letters and digits, any script), each quoted as an FTS5 string, joined
 * with OR so that bm25 ranks memories by how many and how rare the words they
 * share are. FTS5 syntax in the query (`"`, `*`, `NEAR`, `-`, `:` column
 * filters, parentheses) is never passed through: it cannot fail a search or
 * widen it. At most MAX_QUERY_WORDS words, each at most MAX_WORD_CHARS long.
 */

const MAX_QUERY_WORDS = 32;
const MAX_WORD_CHARS = 64;

/** The FTS5 MATCH expression for `query`; undefined when it has no word. */
export function ftsQuery(query: string): string | undefined {
  const words = new Set<string>();
  for (const found of query.slice(0, 10_000).matchAll(/[\p{L}\p{N}_]+/gu)) {
    words.add(found[0].slice(0, MAX_WORD_CHARS).toLowerCase());
    if (words.size >= MAX_QUERY_WORDS) break;
  }
  if (words.size === 0) return undefined;
  return [...words].map((word) => `"${word}"`).join(" OR ");
}
