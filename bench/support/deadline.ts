/**
 * Every wait of a benchmark has a deadline: `within` rejects with an error
 * naming what never came, instead of leaving the bench hanging.
 */
export class DeadlineError extends Error {
  override name = "DeadlineError";
}

export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
