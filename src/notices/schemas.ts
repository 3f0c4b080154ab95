import { Type, type Static } from 'typebox';
import { Envelope } from '../kernel/pagination.ts';
import { NonBlank, Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';

/** Service notices (docs/api.md, collections that move and service notices): one base shape, the public one and the admin API's derived from it. */

/** Longest notice text: the contract's 1000 characters for the body; a title is a line. */
export const NOTICE_BODY_MAX = 1000;
export const NOTICE_TITLE_MAX = 200;
/** Most cities or places one notice names (a list past this is a notice for the whole group). */
const NOTICE_SCOPE_MAX = 1000;

const Severity = Type.Enum(['INFO', 'WARNING'], { description: '`INFO`, or `WARNING` for what residents must act on' });

const NoticeFields = {
  title: NonBlank(NOTICE_TITLE_MAX, 'One line; stored trimmed'),
  body: NonBlank(NOTICE_BODY_MAX, 'Plain text, up to 1000 characters; stored trimmed'),
  severity: Severity,
  startsAt: Timestamp('When the notice comes into force'),
  endsAt: Nullable(Timestamp('When it stops being in force (after `startsAt`); null: until it is deleted')),
};

export const NoticeSchema = Type.Object(
  { id: Uuid(), ...NoticeFields },
  { title: 'ServiceNotice', description: 'A notice of the city group in force now: a strike, a closed road, a change of rounds' },
);
export type Notice = Static<typeof NoticeSchema>;

export const CityNoticesParams = Type.Object({ cityId: Uuid('City id') });
export const CityNoticesQuery = Type.Object({
  placeId: Type.Optional(Uuid('A collection place of the city: only the notices that concern it')),
});

// ------------------------------------------------------------------ the admin API

const ScopeFields = {
  cityIds: Type.Array(Uuid(), {
    maxItems: NOTICE_SCOPE_MAX,
    description: 'Cities of the group it concerns; [] (with `placeIds` []): the whole group',
  }),
  placeIds: Type.Array(Uuid(), {
    maxItems: NOTICE_SCOPE_MAX,
    description: 'Collection places it concerns, of `cityIds` (or of the group when `cityIds` is []); []: every place of them',
  }),
};

export const AdminNoticeSchema = Type.Object(
  {
    id: Uuid(),
    cityGroupId: Uuid('The city group it belongs to'),
    ...ScopeFields,
    ...NoticeFields,
    notify: Type.Boolean({ description: 'Sent once to the reminder subscribers of the places it concerns, from `startsAt`' }),
    notifiedAt: Nullable(Timestamp('When it was handed to the reminders for sending; null until then')),
    createdAt: Timestamp(),
    updatedAt: Timestamp(),
  },
  { title: 'AdminServiceNotice', description: 'A service notice as agents see it: past and future ones too' },
);
export type AdminNotice = Static<typeof AdminNoticeSchema>;

const WritableFields = {
  cityGroupId: Uuid('One of the agent’s groups (404 for any other)'),
  cityIds: Type.Optional(ScopeFields.cityIds),
  placeIds: Type.Optional(ScopeFields.placeIds),
  title: NoticeFields.title,
  body: NoticeFields.body,
  severity: Type.Optional(Type.Enum(['INFO', 'WARNING'], { description: 'Default `INFO`' })),
  startsAt: Type.Optional(Timestamp('When it comes into force; default: now')),
  endsAt: Type.Optional(NoticeFields.endsAt),
  notify: Type.Optional(Type.Boolean({ description: 'Default false. true: sent once to the reminder subscribers of its places' })),
};

const CreateNoticeBody = Type.Object(WritableFields, { description: 'A new notice' });
const NoticePatch = Type.Partial(Type.Object(WritableFields));

export const noticeSchemas = {
  item: AdminNoticeSchema,
  list: Envelope(AdminNoticeSchema),
  idParams: Type.Object({ id: Uuid('Notice id') }),
  create: CreateNoticeBody,
  patch: NoticePatch,
};
export type CreateNoticeInput = Static<typeof CreateNoticeBody>;
export type NoticePatchInput = Static<typeof NoticePatch>;

export const NoticeListQuery = {
  cityGroupId: Type.Optional(Uuid('Only this group’s notices (404 for a group outside the agent’s); default: every group of the agent')),
};

/** Who would receive a notice of this scope: the console shows it before sending (the query is a notice's scope). */
export const NoticeAudienceQuery = Type.Object({
  cityGroupId: Uuid('The notice’s group (404 for a group outside the agent’s)'),
  cityIds: Type.Optional(Type.Array(Uuid(), { maxItems: 500, description: 'As the notice’s `cityIds` (repeatable); absent: []' })),
  placeIds: Type.Optional(Type.Array(Uuid(), { maxItems: 500, description: 'As the notice’s `placeIds` (repeatable); absent: []' })),
});
export type NoticeAudienceQueryInput = Static<typeof NoticeAudienceQuery>;

export const NoticeAudienceSchema = Type.Object({
  subscriptions: Type.Integer({ description: 'Active reminder subscriptions of the places concerned: each gets the notice once' }),
  push: Type.Integer({ description: 'Of which by Web Push' }),
  email: Type.Integer({ description: 'Of which by e-mail' }),
});
export type NoticeAudience = Static<typeof NoticeAudienceSchema>;
