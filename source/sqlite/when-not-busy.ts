/**
 * Retries a step on a database acai's sessions share (the relay's, the
 * memory's) that SQLite refused as busy ("database is locked"). Sessions
 * that start at the same moment share one new database file; its busy timeout covers ordinary waits, but some lock
 * conflicts are refused at once (SQLite does not wait where waiting could
 * deadlock, or while one connection turns a new file into WAL mode). A few
 * short retries make that race invisible; anything else is thrown at once.
 */
const RETRY_DELAYS_MS = [50, 200, 600];

/** SQLITE_BUSY and its extended codes (the low byte is 5). */
export function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code === "number") return (code & 0xff) === 5;
  return error instanceof Error && /database is locked/i.test(error.message);
}

export async function whenNotBusy<T>(step: () => Promise<T>): Promise<T> {
  for (const delay of RETRY_DELAYS_MS) {
    try {
      return await step();
    } catch (error) {
      if (!isBusy(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
  return step();
}
