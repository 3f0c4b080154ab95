import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { answerLink, ignoreFormBodies, linkOrigin } from '../http/link-pages.ts';
import { CONFIRMATION_MAILS_PER_DAY, confirmationBudget } from './confirmation-budget.ts';
import { cachedReminderKeys } from './keys.ts';
import { createMailer } from '../domain/mailer.ts';
import { pages } from './messages.ts';
import {
  DEFAULT_REMINDER_TIME,
  DeleteQuery,
  DeviceParams,
  DeviceSubscriptionListSchema,
  ErrorSchema,
  LinkResultSchema,
  ReminderConfigSchema,
  SubscribeBody,
  SubscriptionIdParams,
  SubscriptionSchema,
  TokenQuery,
} from './schemas.ts';
import * as reminders from './service.ts';

const noStore = { cache: false };

/** Reminders the evening before each collection (docs/api.md, reminders). Registered under /public. */
export default async function reminderRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const mailer = createMailer(app.config);
  if (mailer) app.addHook('onClose', async () => mailer.close());
  const ctx: reminders.ReminderContext = { db: app.db, config: app.config, keys: cachedReminderKeys(app.db, app.config), mailer, log: app.log };
  const countConfirmation = confirmationBudget(app);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  ignoreFormBodies(app);
  const origin = (request: FastifyRequest) => linkOrigin(app.config, request);

  app.get(
    '/reminders/config',
    {
      config: noStore,
      schema: {
        tags: ['reminders'],
        summary: 'What a client needs to subscribe',
        description:
          'The VAPID public key for `PushManager.subscribe({applicationServerKey})` (from VAPID_PUBLIC_KEY, else generated once and ' +
          'kept in the database), whether e-mail reminders are offered (SMTP_URL and MAIL_FROM set) and the default time.',
        response: { 200: ReminderConfigSchema },
      },
    },
    async () => ({
      webPushPublicKey: (await ctx.keys()).vapid.publicKey,
      emailEnabled: mailer !== null,
      defaultTime: DEFAULT_REMINDER_TIME,
    }),
  );

  app.post(
    '/reminders/subscriptions',
    {
      schema: {
        tags: ['reminders'],
        summary: 'Subscribe a device to reminders for a place',
        description:
          'A reminder the day before each collection at the place, at `time` (`HH:MM`, default 19:00) in the city’s time zone, ' +
          'listing the waste types collected (`wasteTypeIds`, [] or absent: all of them). `channel` WEB_PUSH needs `webPush`, the ' +
          'browser’s PushSubscription JSON, whose endpoint must be https and resolve to public addresses only (400 otherwise); EMAIL ' +
          'needs `email` and e-mail to be configured (see GET /reminders/config; else 400), and starts PENDING until the link sent to ' +
          'the address is opened (an unconfirmed subscription is deleted after 7 days). Unknown or NON_ACTIF city: 404; a place that ' +
          'is not one of the city’s: 404; a waste type of another city: 400. The same push endpoint subscribed again for the same place ' +
          'updates that subscription: 200 (its status is kept). An e-mail address is no secret, so it is never the key to another ' +
          'device’s subscription: an address this device already subscribed for the place updates this device’s subscription (200, ' +
          'status kept: the device learns nothing it did not know); an address another device subscribed for the place, confirmed or ' +
          'not, is answered exactly as a new address: 201, a new PENDING subscription of this device, and the other device’s ' +
          'subscription is left as it is (device, time, waste types, status). Its confirmation e-mail tells the mailbox, when the ' +
          'address is confirmed there, that it already receives the place’s reminders; following the link makes the new subscription ' +
          'ACTIVE and deletes the address’s other ' +
          'subscriptions at the place (a message already sent to the address for a day is not sent again). So no answer says whether, ' +
          `or where, an address is subscribed. At most ${CONFIRMATION_MAILS_PER_DAY} confirmation e-mails a day per mailbox (case and ` +
          'the local part’s `+tag` ignored, whatever the domain: `Jean+x@exemple.fr` is `jean@exemple.fr`) and ' +
          'REMINDER_CONFIRMATIONS_PER_IP (default 20) per client IP, counted on every e-mail subscription request and shared between ' +
          'instances when REDIS_URL is set: 429 (code `rateLimited`) beyond. The confirmation e-mail could not be handed to the SMTP ' +
          'server: 503, subscribe again.',
        body: SubscribeBody,
        response: { 200: SubscriptionSchema, 201: SubscriptionSchema, 400: ErrorSchema, 404: ErrorSchema, 429: ErrorSchema, 503: ErrorSchema },
      },
    },
    async (request, reply) => {
      const { body } = request;
      if (body.channel === 'EMAIL' && body.email && mailer) await countConfirmation(request, body.email);
      const { subscription, created } = await reminders.subscribe(ctx, body, origin(request), app.clock());
      return reply.code(created ? 201 : 200).send(subscription);
    },
  );

  app.get(
    '/reminders/subscriptions/:deviceId',
    {
      config: noStore,
      schema: {
        tags: ['reminders'],
        summary: 'The subscriptions of a device',
        description:
          'The device’s own subscriptions, its PENDING e-mail requests included, as a bare array, oldest first; never another ' +
          'device’s, even of the same address. `email` is masked (`j***@exemple.fr`), null for push; push endpoints and keys are ' +
          'never returned. Unknown device: [].',
        params: DeviceParams,
        response: { 200: DeviceSubscriptionListSchema, 400: ErrorSchema },
      },
    },
    async (request) => reminders.listForDevice(app.db, request.params.deviceId),
  );

  app.delete(
    '/reminders/subscriptions/:id',
    {
      schema: {
        tags: ['reminders'],
        summary: 'Delete a subscription of the device',
        description: '204 when `deviceId` owns the subscription; 404 otherwise (unknown, or another device’s).',
        params: SubscriptionIdParams,
        querystring: DeleteQuery,
        response: { 204: Type.Null({ description: 'Deleted' }), 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) => {
      await reminders.unsubscribeDevice(app.db, request.params.id, request.query.deviceId);
      return reply.code(204).send(null);
    },
  );

  /** A link's answer: the page for a browser, `{status}` for a client asking for JSON. A bad link: the contract's 404 error body. */
  const answerLinkWith = async (request: FastifyRequest, reply: FastifyReply, work: () => Promise<{ status: 'ACTIVE' | 'DELETED'; page: string }>) => {
    const { status, page } = await work();
    return answerLink(request, reply, { json: { status }, page });
  };

  const linkDescription =
    'Answers a short French HTML page when the request accepts text/html (a browser), else JSON `{status}`. A bad or expired ' +
    'token: 404 with the error body (docs/api.md, conventions: never an HTML error page).';

  app.get(
    '/reminders/confirm',
    {
      config: noStore,
      schema: {
        tags: ['reminders'],
        operationId: 'confirmReminderSubscription',
        summary: 'Confirm an e-mail subscription (the link of the confirmation e-mail)',
        description: `Activates the pending subscription the signed token names (the link lasts 7 days). ${linkDescription}`,
        querystring: TokenQuery,
        response: { 200: LinkResultSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) =>
      answerLinkWith(request, reply, async () => ({ status: await reminders.confirmLink(ctx, request.query.token, app.clock()), page: pages.confirmed() })),
  );

  app.get(
    '/reminders/unsubscribe',
    {
      config: noStore,
      schema: {
        tags: ['reminders'],
        summary: 'The unsubscribe page of an e-mail’s link',
        description:
          'Changes nothing (mail scanners open links): the page has a button that POSTs to the same URL. As JSON, `{status: "ACTIVE"}` ' +
          `while the subscription exists, \`{status: "DELETED"}\` once it is gone. ${linkDescription}`,
        querystring: TokenQuery,
        response: { 200: LinkResultSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) =>
      answerLinkWith(request, reply, async () => {
        const id = await reminders.checkUnsubscribeLink(ctx, request.query.token, app.clock());
        const exists = await reminders.subscriptionExists(app.db, id);
        const action = `unsubscribe?token=${encodeURIComponent(request.query.token)}`;
        return { status: exists ? 'ACTIVE' : 'DELETED', page: exists ? pages.unsubscribeForm(action) : pages.unsubscribed() };
      }),
  );

  app.post(
    '/reminders/unsubscribe',
    {
      schema: {
        tags: ['reminders'],
        summary: 'Unsubscribe (RFC 8058 one-click)',
        description:
          'Deletes the subscription the signed token names, without the device; the body (`List-Unsubscribe=One-Click`, a form ' +
          `or nothing) is ignored. Already deleted: the same answer. ${linkDescription}`,
        querystring: TokenQuery,
        response: { 200: LinkResultSchema, 400: ErrorSchema, 404: ErrorSchema },
      },
    },
    async (request, reply) =>
      answerLinkWith(request, reply, async () => ({ status: await reminders.unsubscribeLink(ctx, request.query.token, app.clock()), page: pages.unsubscribed() })),
  );
}
