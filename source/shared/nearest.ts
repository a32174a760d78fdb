/**
 * The known name nearest to a mistyped one (case-insensitive edit distance),
 * for "did you mean …?" in error messages; undefined when nothing is close
 * (more than a third of the name would have to change).
 */
export function nearestName(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined || best.distance > Math.max(2, Math.ceil(typed.length / 3)))
    return undefined;
  return best.name;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(
        Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitute),
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
