import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import cookie from '@fastify/cookie';
import { Type } from 'typebox';
import { ErrorSchema } from '../kernel/schemas.ts';
import { ACCESS_TOKEN_TTL_S, login, logout, refresh, type AuthContext, type IssuedSession } from './login.ts';
import { prepareDummyHash } from './passwords.ts';
import { LoginBody, SessionSchema } from './schemas.ts';
import { LOGIN_WINDOW_MS, MAX_FAILURES_PER_EMAIL, MAX_FAILURES_PER_IP } from './throttle.ts';

/** The refresh cookie: sent back only to /auth, only over HTTPS, never to scripts, never from another site. */
export const REFRESH_COOKIE = 'collecte_refresh';
const COOKIE_OPTIONS = { path: '/auth', httpOnly: true, secure: true, sameSite: 'strict' } as const;

const tags = ['auth'];
const withCookie = { security: [{ refreshCookie: [] }] };

function sendSession(reply: FastifyReply, issued: IssuedSession, now: Date) {
  const maxAge = Math.max(0, Math.floor((issued.refreshExpiresAt.getTime() - now.getTime()) / 1000));
  reply.setCookie(REFRESH_COOKIE, issued.refreshToken, { ...COOKIE_OPTIONS, maxAge });
  return issued.session;
}

/**
 * Agents' login (docs/api.md, the admin API), registered under /auth. Outside /public: never cached, never counted by the
 * public rate limit (the login has its own throttle), no CORS.
 */
export default async function authRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await app.register(cookie);
  await prepareDummyHash();
  const ctx: AuthContext = { db: app.db, secret: app.config.consoleJwtSecret, sessionMs: app.config.authSessionHours * 3_600_000 };
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });

  app.post(
    '/login',
    {
      schema: {
        tags,
        summary: 'Log in with an e-mail and a password',
        description:
          `Answers the access token (${ACCESS_TOKEN_TTL_S / 60} minutes) and sets the \`${REFRESH_COOKIE}\` cookie (HttpOnly, Secure, ` +
          'SameSite=Strict, Path=/auth) that `POST /auth/refresh` takes. A wrong e-mail and a wrong password answer the same 401. ' +
          `After ${MAX_FAILURES_PER_EMAIL} failures in ${LOGIN_WINDOW_MS / 60_000} minutes for an e-mail, or ${MAX_FAILURES_PER_IP} ` +
          'for a client IP, the next attempt answers 429 with `Retry-After`, even with the right password. An inactive account: 401.',
        body: LoginBody,
        response: { 200: SessionSchema, 400: ErrorSchema, 401: ErrorSchema, 429: ErrorSchema },
      },
    },
    async (request, reply) => {
      const now = app.clock();
      return sendSession(reply, await login(ctx, { ...request.body, ip: request.ip }, now), now);
    },
  );

  app.post(
    '/refresh',
    {
      schema: {
        tags,
        ...withCookie,
        operationId: 'refreshSession',
        summary: 'A new access token for the refresh cookie',
        description:
          'The refresh token rotates: the answer sets a new cookie, and the old token no longer works. Presenting an old token ' +
          'again (a copied cookie) revokes the whole session: 401, and its newest token stops working too. A session lasts ' +
          'AUTH_SESSION_HOURS from the login (refreshes do not extend it); an account deactivated meanwhile answers 401.',
        response: { 200: SessionSchema, 401: ErrorSchema },
      },
    },
    async (request, reply) => {
      const now = app.clock();
      return sendSession(reply, await refresh(ctx, request.cookies[REFRESH_COOKIE], now), now);
    },
  );

  app.post(
    '/logout',
    {
      schema: {
        tags,
        ...withCookie,
        summary: 'End the session of the refresh cookie',
        description: 'Revokes the session and clears the cookie; 204 also without a cookie. Access tokens already issued expire on their own.',
        response: { 204: Type.Null({ description: 'Logged out' }) },
      },
    },
    async (request, reply) => {
      await logout(ctx, request.cookies[REFRESH_COOKIE], app.clock());
      reply.clearCookie(REFRESH_COOKIE, COOKIE_OPTIONS);
      return reply.code(204).send(null);
    },
  );
}
