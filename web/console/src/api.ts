// The console's one way to the server: /auth, /admin and /chat, with the agent's access token.
//
// The access token lives in memory only (never in storage a script could read later). The session itself is the
// HttpOnly refresh cookie (Path=/auth): on load, and whenever a request answers 401, POST /auth/refresh gives a new
// token and the request is sent once more. When the refresh fails too, the session has ended: the app shows the
// login screen (forms keep their drafts in sessionStorage, see editor.tsx useEditor).
import type { paths } from '../../shared/api-types.gen.ts';
import type { ApiErrorBody, JsonAnswer, Listing } from '../../shared/types.ts';

export type User = Session['user'];
export type Permission = User['permissions'][number];
type Session = JsonAnswer<paths['/auth/login']['post']>;

/** The listing envelope of the API reference at /docs, CMS. */
export type Page<T> = Listing<T>;

/** An answer that is not 2xx, with the server's French sentence (or ours when the server could not be reached). */
export class ApiError extends Error {
  readonly status: number;
  /** The error kind the API names (`validation`, `preconditionFailed`…); null for a failure of the network or ours. */
  readonly code: string | null;
  /** The JSON name or path of the field the API refused (`cityGroupIds`, `webPush.endpoint`), or null. */
  readonly field: string | null;
  constructor(message: string, status: number, code: string | null = null, field: string | null = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

const OFFLINE = 'Impossible de joindre le serveur\u00a0: vérifiez votre connexion, puis réessayez.';
const SERVER = 'Le serveur rencontre un problème passager. Réessayez dans quelques instants.';
const EXPIRED = 'Votre session a pris fin\u00a0: reconnectez-vous pour continuer.';

// ---- the session -------------------------------------------------------------------------------------------------

let session: Session | null = null;
/** Why the agent is on the login screen: null at first, 'expired' when a session ended under their feet. */
let endReason: 'expired' | 'logout' | null = null;
const listeners = new Set<() => void>();

function setSession(next: Session | null, reason: 'expired' | 'logout' | null = null) {
  session = next;
  endReason = next ? null : reason;
  for (const listener of listeners) listener();
}

export const currentUser = (): User | null => session?.user ?? null;
export const sessionEndReason = () => endReason;

/** Called whenever the agent logs in or out or the session ends; answers the unsubscribe. */
export function onSessionChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether the agent may see a screen that needs `permission` (null: any agent); a super admin holds them all. */
export function holds(user: User | null, permission: Permission | null): boolean {
  if (!user) return false;
  return permission === null || user.superAdmin || user.permissions.includes(permission);
}

async function send(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  try {
    return await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(OFFLINE, 0);
  }
}

async function failure(response: Response): Promise<ApiError> {
  const payload = (await response.json().catch(() => null)) as Partial<ApiErrorBody> | null;
  if (response.status >= 500 || !payload?.message) return new ApiError(response.status >= 500 ? SERVER : `Erreur ${response.status}.`, response.status);
  return new ApiError(payload.message, response.status, payload.code ?? null, payload.field ?? null);
}

let refreshing: Promise<boolean> | null = null;

/** POST /auth/refresh, once at a time however many requests ask; true when a new access token came. */
function refresh(): Promise<boolean> {
  refreshing ??= (async () => {
    try {
      const response = await send('POST', '/auth/refresh', undefined, {});
      if (!response.ok) return false;
      const next = (await response.json()) as Session;
      // Same agent: only the token changes (no re-render of every screen).
      if (session && session.user.id === next.user.id) session = next;
      else setSession(next);
      return true;
    } catch {
      return false;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/** On load: the refresh cookie, if any, gives the session back. False: show the login screen. */
export async function restoreSession(): Promise<boolean> {
  return refresh();
}

export async function login(email: string, password: string): Promise<void> {
  const response = await send('POST', '/auth/login', { email, password }, {});
  if (!response.ok) throw await failure(response);
  setSession((await response.json()) as Session);
}

export async function logout(): Promise<void> {
  await send('POST', '/auth/logout', undefined, {}).catch(() => undefined);
  sessionStorage.clear();
  setSession(null, 'logout');
}

/** Ends the session as the server did (tests and a refused refresh); the drafts stay. */
function expire() {
  if (session) setSession(null, 'expired');
}

// ---- requests ----------------------------------------------------------------------------------------------------

export interface Answer<T> {
  data: T;
  /** The record's version, for If-Match on its next PATCH or DELETE. */
  etag: string | null;
  status: number;
}

export interface RequestOptions {
  body?: unknown;
  /** The ETag read with the record: the server answers 412 if it changed since. */
  ifMatch?: string | null;
}

/** A request with the access token; a 401 refreshes the token and sends it once more. */
export async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
  const headers = (): Record<string, string> => ({
    ...(session ? { authorization: `Bearer ${session.accessToken}` } : {}),
    ...(options.ifMatch ? { 'if-match': options.ifMatch } : {}),
  });
  let response = await send(method, path, options.body, headers());
  if (response.status === 401) {
    if (!(await refresh())) {
      expire();
      throw new ApiError(EXPIRED, 401);
    }
    response = await send(method, path, options.body, headers());
  }
  if (!response.ok) throw await failure(response);
  const data = (response.status === 204 ? null : await response.json()) as T;
  return { data, etag: response.headers.get('etag'), status: response.status };
}

export const get = <T>(path: string) => request<T>('GET', path).then((a) => a.data);
export const post = <T>(path: string, body: unknown) => request<T>('POST', path, { body }).then((a) => a.data);

/** Every item of a listing, page after page (the lists of a city are short: a few pages at most). */
export async function getAll<T>(path: string): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const answer = await get<Page<T>>(`${path}${path.includes('?') ? '&' : '?'}page=${page}&pageSize=100`);
    items.push(...answer.data);
    if (page >= answer.meta.totalPages) return items;
  }
}

/**
 * The Authorization header of the current session, for requests that are not JSON (a media's bytes, an upload with
 * its progress); `renew` first asks for a new access token (after a 401), false when the session has ended.
 */
export async function bearer(renew = false): Promise<Record<string, string> | null> {
  if (renew && !(await refresh())) {
    expire();
    return null;
  }
  return session ? { authorization: `Bearer ${session.accessToken}` } : null;
}

export function messageOf(err: unknown): string {
  return err instanceof ApiError ? err.message : SERVER;
}

// ---- streams -----------------------------------------------------------------------------------------------------

/**
 * Opens a long-lived GET (the inbox's server-sent events) with the access token, which EventSource cannot send; a 401
 * refreshes the token once, as requests do. Answers the response, whose body the caller reads.
 */
export async function openStream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response> {
  const attempt = () =>
    fetch(path, {
      headers: { accept: 'text/event-stream', ...(session ? { authorization: `Bearer ${session.accessToken}` } : {}), ...headers },
      credentials: 'same-origin',
      cache: 'no-store',
      signal,
    });
  let response = await attempt();
  if (response.status === 401) {
    if (!(await refresh())) {
      expire();
      throw new ApiError(EXPIRED, 401);
    }
    response = await attempt();
  }
  if (!response.ok) throw await failure(response);
  return response;
}

/** A new access token now (the stream said `expired`); false when the session has ended. */
export async function renewToken(): Promise<boolean> {
  if (await refresh()) return true;
  expire();
  return false;
}
