// The audit shares its process with the service: the API, /healthz and other runs are answered on
// the same event loop. Work that grows with the site (a crawl's links, a product's checks over 25
// pages) is cut into parts, each run in a turn of the loop of its own, so no part holds it for long.

/** Resolves on a later turn of the event loop, after the I/O that is waiting. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs each part in a turn of its own and joins what they return, in order. */
export async function inTurns<T>(parts: ReadonlyArray<() => readonly T[]>): Promise<T[]> {
  const all: T[] = [];
  for (const part of parts) {
    await nextTurn();
    all.push(...part());
  }
  return all;
}
