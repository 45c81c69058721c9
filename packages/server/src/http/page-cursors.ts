// Page cursors as the API hands them out: the store's cursor followed by an HMAC over the listing, the
// tenant and that cursor. A cursor a client made up or altered, or one issued to another tenant or for
// another listing, is refused with CURSOR_INVALID before the store sees it. The key is the service's
// (derived from the database's address, so every instance sharing a database accepts the others' cursors);
// this module never logs it and never reads the environment.

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { PunctualError } from 'punctual';

/** Which listing a cursor pages through. */
export type Listing = 'schedules' | 'runs' | 'kv' | 'revisions' | 'calendarRevisions';

const SIG_CHARS = 22; // 16 bytes of HMAC-SHA256 in base64url

export class PageCursors {
  readonly #key: Buffer;

  /** `secret`: any text known to the service only; without it, a random key (cursors of this process only). */
  constructor(secret?: string) {
    this.#key =
      secret === undefined
        ? randomBytes(32)
        : createHash('sha256').update('punctual page cursor\0').update(secret).digest();
  }

  /** The store's next-page cursor as the API hands it out (null on the last page). */
  sign(listing: Listing, tenantId: string, cursor: string | null | undefined): string | null {
    if (cursor === null || cursor === undefined) return null;
    return `${cursor}.${this.#sig(listing, tenantId, cursor)}`;
  }

  /** The store's cursor inside one the API handed out; CURSOR_INVALID when it is not one of them. */
  open(listing: Listing, tenantId: string, cursor: string | undefined): string | undefined {
    if (cursor === undefined) return undefined;
    const dot = cursor.lastIndexOf('.');
    const inner = dot < 0 ? '' : cursor.slice(0, dot);
    const given = Buffer.from(dot < 0 ? '' : cursor.slice(dot + 1));
    const expected = Buffer.from(this.#sig(listing, tenantId, inner));
    if (inner === '' || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new PunctualError('CURSOR_INVALID', 'the page cursor is not one this listing returned', {
        cursor,
      });
    }
    return inner;
  }

  #sig(listing: Listing, tenantId: string, cursor: string): string {
    return createHmac('sha256', this.#key)
      .update(`${listing}\0${tenantId}\0${cursor}`)
      .digest('base64url')
      .slice(0, SIG_CHARS);
  }
}
