// Row ids: UUIDv7 (RFC 9562 5.7), time-ordered so that (created_at, id) keyset pages keep creation
// order even when rows share a millisecond. Within one millisecond a counter in rand_a keeps ids of
// this process increasing (RFC 9562 6.2, method 1).
import { randomBytes } from 'node:crypto';

let lastMs = -1;
let counter = 0;

export function uuidv7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  if (now <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      // Counter spent: borrow the next millisecond rather than go backwards.
      lastMs++;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = bytes.readUInt16BE(6) & 0x7ff; // random start, headroom left for increments
  }
  const ms = lastMs;
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (counter >> 8);
  bytes[7] = counter & 0xff;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An outbox event's id (spec 6.2: `evt_` prefix), the receivers' idempotency key. */
export const eventId = (): string => `evt_${uuidv7().replace(/-/g, '')}`;
