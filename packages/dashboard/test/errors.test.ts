// API errors placed next to their fields: schema issues, library errors naming a field, errors that name a
// child of a field, codes that imply a field, and everything else for the form as a whole.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/api.ts';
import { describeError, mapApiError, nearestField } from '../src/lib/errors.ts';
import { KNOWN_PATHS } from '../src/lib/form.ts';

describe('mapApiError', () => {
  it('places a library error on the field its details name', () => {
    const e = new ApiError(
      400,
      'SCHEDULE_INVALID',
      'policies.retry.maxAttempts must be an integer between 1 and 1000',
      {
        field: 'policies.retry.maxAttempts',
      },
    );
    expect(mapApiError(e, KNOWN_PATHS)).toEqual({
      fields: { 'policies.retry.maxAttempts': 'Must be an integer between 1 and 1000' },
      general: null,
    });
  });

  it('places every schema issue of the body', () => {
    const e = new ApiError(400, 'VALIDATION_FAILED', 'body.spec: Too small', {
      in: 'body',
      field: 'spec',
      issues: [
        { field: 'spec', message: 'Too small: expected string to have >=1 characters' },
        { field: 'target.webhook.headers.X-Long', message: 'Too big' },
        { field: '', message: 'Unrecognized key: "colour"' },
      ],
    });
    const mapped = mapApiError(e, KNOWN_PATHS);
    expect(mapped.fields).toEqual({
      spec: 'Too small: expected string to have >=1 characters',
      'target.webhook.headers': 'Too big',
    });
    expect(mapped.general).toBe('body.spec: Too small');
  });

  it('places a path error on the key', () => {
    const e = new ApiError(400, 'VALIDATION_FAILED', 'path.key: Invalid string', {
      in: 'path',
      field: 'key',
      issues: [{ field: 'key', message: 'Invalid string: must match pattern' }],
    });
    expect(mapApiError(e, KNOWN_PATHS).fields).toEqual({ key: 'Invalid string: must match pattern' });
  });

  it('uses the code when the error names no field', () => {
    const e = new ApiError(400, 'TARGET_ADDRESS_REFUSED', 'the address 10.0.0.1 is private', {});
    expect(mapApiError(e, KNOWN_PATHS).fields).toEqual({
      'target.webhook.url': 'The address 10.0.0.1 is private',
    });
  });

  it('keeps header and unknown errors for the whole form', () => {
    const conflict = new ApiError(409, 'VERSION_CONFLICT', 'stale', { key: 'a', expected: 1, actual: 2 });
    expect(mapApiError(conflict, KNOWN_PATHS)).toEqual({
      fields: {},
      general: 'Someone changed this schedule since you opened it. Reload it to see the new version.',
    });
    const header = new ApiError(400, 'VALIDATION_FAILED', 'headers.if-match: bad', {
      in: 'headers',
      field: 'if-match',
    });
    expect(mapApiError(header, KNOWN_PATHS).general).toBe('headers.if-match: bad (VALIDATION_FAILED)');
    expect(mapApiError(new Error('boom'), KNOWN_PATHS)).toEqual({ fields: {}, general: 'boom' });
  });

  it('finds the nearest known parent', () => {
    expect(nearestField('target.webhook.headers.X-A', KNOWN_PATHS)).toBe('target.webhook.headers');
    expect(nearestField('policies.retry', KNOWN_PATHS)).toBeNull();
    expect(nearestField('target', KNOWN_PATHS)).toBe('target');
  });

  it('describes network failures plainly', () => {
    expect(
      describeError(new ApiError(0, 'NETWORK', 'the service could not be reached; check that it is running')),
    ).toMatch(/could not be reached/);
  });
});
