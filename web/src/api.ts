// The one way this app talks to the server: the public API, same URLs as any client.
import type { ApiErrorBody } from '../shared/types.ts';

/** An API failure carrying the sentence shown to the citizen. */
export class ApiError extends Error {
  readonly status: number;
  /** True when the server could not be reached at all (offline, DNS, server down). */
  readonly offline: boolean;
  /** The field a refusal names (`description`, `attributes.motif`), as the server's error body says; else null. */
  readonly field: string | null;
  constructor(message: string, status: number, offline = false, field: string | null = null) {
    super(message);
    this.status = status;
    this.offline = offline;
    this.field = field;
  }
}

const OFFLINE = 'Impossible de joindre le service : vérifiez votre connexion à internet, puis réessayez.';
const NOT_FOUND = "Nous n'avons pas trouvé cette information : elle a peut-être été retirée ou le lien est erroné.";
const SERVER = 'Le service rencontre un problème passager. Réessayez dans quelques instants.';

function tooMany(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  const wait = Number.isFinite(seconds) && seconds > 0 ? `environ ${Math.ceil(seconds)} seconde${seconds > 1 ? 's' : ''}` : 'une minute';
  return `Trop de demandes en peu de temps : patientez ${wait}, puis réessayez.`;
}

interface RequestOptions {
  /** Aborts the request; the promise then rejects with the AbortError itself, not an ApiError. */
  signal?: AbortSignal;
  /** The browser's HTTP cache mode (`no-cache`: revalidate, never a stored answer as it is). */
  cache?: RequestCache;
}

/** The answer once it is a success; a failure becomes an ApiError with its French sentence. */
async function exchange(method: string, path: string, body?: unknown, { signal, cache }: RequestOptions = {}): Promise<Response> {
  let response: Response;
  // A form (a photo) goes as multipart, its boundary set by the browser; anything else as JSON.
  const form = body instanceof FormData;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
      signal,
      cache,
    });
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(OFFLINE, 0, true);
  }
  if (response.ok) return response;
  if (response.status === 429) throw new ApiError(tooMany(response.headers.get('retry-after')), 429);
  if (response.status === 404) throw new ApiError(NOT_FOUND, 404);
  if (response.status === 400 || response.status === 409 || response.status === 413) {
    // The server's 400, 409 and 413 messages are French sentences (a quiz whose required challenge is not done, a
    // pickup day full, a photo too large…), naming the field at fault in `field`.
    const payload = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
    throw new ApiError(payload?.message ?? 'Votre demande n’a pas pu être traitée.', response.status, false, payload?.field ?? null);
  }
  throw new ApiError(SERVER, response.status);
}

async function request<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const response = await exchange(method, path, body, options);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

const cache = new Map<string, Promise<unknown>>();

/** GET, remembered for the session so that moving between screens does not ask again. */
export function get<T>(path: string, { fresh = false } = {}): Promise<T> {
  if (!fresh && cache.has(path)) return cache.get(path) as Promise<T>;
  const pending = request<T>('GET', path);
  cache.set(path, pending);
  pending.catch(() => cache.delete(path));
  return pending;
}

/**
 * GET straight from the network, never remembered: for answers that depend on what the citizen is typing
 * (address suggestions), where a superseded request is aborted and an old answer must not pass for a fresh one.
 */
export function getLive<T>(path: string, signal?: AbortSignal): Promise<T> {
  return request<T>('GET', path, undefined, { signal, cache: 'no-cache' });
}

/** The header web/public/sw.js sets on the copy it kept, answered when the network is out of reach. */
const KEPT_MARK = 'x-collecte-kept';

/** An answer, and whether it is the copy the service worker kept rather than the network's. */
export interface KeptOrLive<T> {
  data: T;
  /** True when the network was out of reach and the service worker answered with its copy. */
  kept: boolean;
  /** When the server sent that copy (its `Date`), null when it does not say. */
  sentAt: string | null;
}

/** getLive, saying whether the answer is the service worker's kept copy (offline) and when the server sent it. */
export async function getLiveOrKept<T>(path: string, signal?: AbortSignal): Promise<KeptOrLive<T>> {
  const response = await exchange('GET', path, undefined, { signal, cache: 'no-cache' });
  const sent = Date.parse(response.headers.get('date') ?? '');
  return {
    data: (await response.json()) as T,
    kept: response.headers.has(KEPT_MARK),
    sentAt: Number.isNaN(sent) ? null : new Date(sent).toISOString(),
  };
}

export function post<T>(path: string, body: unknown): Promise<T> {
  return request<T>('POST', path, body);
}

/** POST answering its status too, for routes whose 200 and 201 say different things (a request joined or created). */
export async function postForStatus<T>(path: string, body: unknown): Promise<{ status: number; data: T }> {
  const response = await exchange('POST', path, body);
  return { status: response.status, data: (await response.json()) as T };
}

/** POST of a multipart form (a photo), answering the JSON the server sends back. */
export function upload<T>(path: string, form: FormData): Promise<T> {
  return request<T>('POST', path, form);
}

export function del(path: string): Promise<void> {
  return request<void>('DELETE', path);
}

export function messageOf(err: unknown): string {
  return err instanceof ApiError ? err.message : SERVER;
}
