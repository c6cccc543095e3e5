/** A non-2xx answer: the API's error envelope `{status, message, timestamp, traceId}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly traceId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | undefined | null>;

export interface Api {
  get<T>(path: string, query?: Query): Promise<T>;
  send<T>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<T>;
}

/** `?a=1&b=2`, leaving out what is unset or empty. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(name, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A path segment for an identifier chosen by the merchant (`cus/1` stays one segment). */
export const segment = (id: string) => encodeURIComponent(id);

/**
 * The public API on this page's own origin (the CSP allows no other), with the signed-in key.
 * A 401 (key revoked or unknown) signs the analyst out.
 */
export function createApi(key: string, onUnauthorized: () => void): Api {
  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { Authorization: `token ${key}`, Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'omit', cache: 'no-store' });
    } catch {
      throw new ApiError(0, 'the server could not be reached');
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // A proxy's HTML error page: reported by its status below.
    }
    if (!response.ok) {
      const envelope = (parsed ?? {}) as { message?: unknown; traceId?: unknown };
      if (response.status === 401) onUnauthorized();
      throw new ApiError(response.status, typeof envelope.message === 'string' ? envelope.message : `HTTP ${response.status}`, typeof envelope.traceId === 'string' ? envelope.traceId : undefined);
    }
    return parsed as T;
  }
  return {
    get: (path, query) => request(`GET`, `${path}${queryString(query)}`),
    send: (method, path, body) => request(method, path, body),
  };
}

/** The `data` of an enveloped answer `{status, timestamp, data}`. */
export const dataOf = <T>(answer: { data: T }): T => answer.data;
