// Opaque page cursors: the keyset position, bound to the organization and the query, signed with a
// secret shared through the database so any `serve` process accepts another's cursor.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from './errors.ts';

export interface CursorPosition {
  /** The sort key of the last row of the page (a creation time, or a position). */
  sortKey: string;
  id: string;
}

export class CursorCodec {
  readonly #secret: string;

  constructor(secret: string) {
    this.#secret = secret;
  }

  #sign(payload: string): string {
    return createHmac('sha256', this.#secret).update(payload).digest('base64url').slice(0, 22);
  }

  /** `scope` names whose rows and which filter the cursor walks, e.g. `projects|<orgId>|active`. */
  encode(scope: string, position: CursorPosition): string {
    const payload = Buffer.from(JSON.stringify([position.sortKey, position.id])).toString('base64url');
    return `${payload}.${this.#sign(`${scope}|${payload}`)}`;
  }

  /** The position, or a 400 when the cursor was altered or belongs to another organization or query. */
  decode(scope: string, cursor: string): CursorPosition {
    const invalid = () =>
      new ApiError(400, 'validation_failed', 'cursor is not valid for this query; start again without a cursor', {
        details: { field: 'cursor' },
      });
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined) throw invalid();
    const expected = Buffer.from(this.#sign(`${scope}|${payload}`));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalid();
    try {
      const [sortKey, id] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as unknown[];
      if (typeof sortKey === 'string' && typeof id === 'string') return { sortKey, id };
    } catch {
      // fall through
    }
    throw invalid();
  }

  /**
   * A newest-first page of rows keyed by (created_at, id): loads `limit + 1` rows after the cursor's
   * position and answers the page with the cursor of the next one (null on the last page).
   */
  async newestFirst<Row extends { created_at: string; id: string }>(
    scope: string,
    cursor: string | undefined,
    limit: number,
    load: (after: { createdAt: string; id: string } | undefined) => Promise<Row[]>,
  ): Promise<{ page: Row[]; nextCursor: string | null }> {
    const position = cursor ? this.decode(scope, cursor) : undefined;
    const rows = await load(position ? { createdAt: position.sortKey, id: position.id } : undefined);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > limit && last ? this.encode(scope, { sortKey: last.created_at, id: last.id }) : null;
    return { page, nextCursor };
  }
}
