// The thin wrapper over the generated client: the session's key as a bearer token (or the key being tried at
// sign-in), the service's error body as an ApiError, 401 reported once as "signed out", a network failure as
// NETWORK, and paths and query strings built from the OpenAPI document.
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createApi } from '../src/api.ts';

function fakeFetch(answer: (req: Request) => Response | Promise<Response>) {
  const seen: Request[] = [];
  const fetch = vi.fn(async (req: Request) => {
    seen.push(req.clone());
    return answer(req);
  });
  return { fetch, seen };
}

const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('createApi', () => {
  it('sends the key, encodes the path and query, and returns the body', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { items: [], nextCursor: null }));
    const api = createApi({ baseUrl: 'http://svc', key: () => 'pk_session', fetch });
    await expect(api.scheduleRuns('a b/c', { state: 'dead', limit: 5 })).resolves.toEqual({
      items: [],
      nextCursor: null,
    });
    const req = seen[0] as Request;
    expect(req.url).toBe('http://svc/v1/schedules/a%20b%2Fc/runs?state=dead&limit=5');
    expect(req.headers.get('authorization')).toBe('Bearer pk_session');
  });

  it('sends If-Match with the version an edit loaded, and the body as JSON', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { key: 'k' }));
    const api = createApi({ baseUrl: 'http://svc', key: () => 'pk_session', fetch });
    await api.putSchedule(
      'k',
      { spec: '@every 1m', target: { nats: { connection: 'bus', subject: 's' } } },
      4,
    );
    const req = seen[0] as Request;
    expect(req.method).toBe('PUT');
    expect(req.headers.get('if-match')).toBe('4');
    expect(await req.json()).toEqual({
      spec: '@every 1m',
      target: { nats: { connection: 'bus', subject: 's' } },
    });
  });

  it("turns the service's error body into an ApiError, and reports a 401 as signed out", async () => {
    const onUnauthorized = vi.fn();
    const { fetch } = fakeFetch((req) =>
      req.url.endsWith('/v1/runs/nope')
        ? json(404, { error: { code: 'RUN_NOT_FOUND', message: 'no run "nope"', details: { id: 'nope' } } })
        : json(401, { error: { code: 'UNAUTHORIZED', message: 'key not accepted', details: {} } }),
    );
    const api = createApi({ baseUrl: 'http://svc', key: () => 'pk_session', fetch, onUnauthorized });
    const err = await api.getRun('nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 404, code: 'RUN_NOT_FOUND', details: { id: 'nope' } });
    expect(onUnauthorized).not.toHaveBeenCalled();
    await expect(api.listRuns({})).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('tries a key at sign-in without signing the session out when it is refused', async () => {
    const onUnauthorized = vi.fn();
    const { fetch, seen } = fakeFetch(() =>
      json(401, { error: { code: 'UNAUTHORIZED', message: 'no', details: {} } }),
    );
    const api = createApi({ baseUrl: 'http://svc', key: () => null, fetch, onUnauthorized });
    await expect(api.tenant('pk_typed')).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(seen[0]?.headers.get('authorization')).toBe('Bearer pk_typed');
    expect([...(seen[0]?.headers.keys() ?? [])].some((h) => h.startsWith('x-punctual'))).toBe(false);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('names a network failure and an answer that is not JSON', async () => {
    const down = createApi({
      baseUrl: 'http://svc',
      key: () => null,
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    await expect(down.listSchedules({})).rejects.toMatchObject({ status: 0, code: 'NETWORK' });
    const proxy = createApi({
      baseUrl: 'http://svc',
      key: () => null,
      fetch: async () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    });
    await expect(proxy.listSchedules({})).rejects.toMatchObject({ status: 502, code: 'HTTP_502' });
  });

  it('reads the metrics as JSON from /v1/metrics', async () => {
    const { fetch, seen } = fakeFetch(() => json(200, { at: '2026-01-01T00:00:00.000Z', samples: [] }));
    const api = createApi({ baseUrl: 'http://svc', key: () => 'pk_session', fetch });
    await expect(api.metrics()).resolves.toEqual({ at: '2026-01-01T00:00:00.000Z', samples: [] });
    expect(seen[0]?.url).toBe('http://svc/v1/metrics');
  });
});
