import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { Envelope, PaginationQuery } from '../kernel/pagination.ts';

/** Shapes every admin resource shares: the conditional write's header, and the audit log's entries and query. */

/**
 * The request headers of every admin PATCH and DELETE. `If-Match` is required (the admin guard answers 428 before
 * anything else without it), so that no script overwrites someone else's change without having read it.
 */
export const IfMatchHeaders = Type.Object({
  'if-match': Type.String({
    maxLength: 1000,
    description: 'Required: the ETag of the version read (`*` for whatever version is there). 428 without it; 412 when the record changed since',
  }),
});

const Snapshot = Nullable(Type.Object({}, { additionalProperties: true, description: 'The record as the admin API shows it' }));

export const AuditEntrySchema = Type.Object(
  {
    id: Uuid(),
    at: Timestamp(),
    userId: Nullable(Uuid('The account that wrote; null for the operator’s command line')),
    userName: Type.String(),
    action: Type.Enum(['create', 'update', 'delete']),
    entity: Type.String({ examples: ['user', 'exception', 'blogPost'], description: 'The kind’s singular camelCase name' }),
    entityId: Uuid(),
    before: Snapshot,
    after: Snapshot,
  },
  { title: 'AuditEntry' },
);
export type AuditEntry = Static<typeof AuditEntrySchema>;

export const AuditQuery = Type.Object({
  entity: Type.Optional(Type.String({ pattern: '^[a-z][A-Za-z0-9]{0,63}$', description: 'Only entries of this kind (`exception`, `user`…)' })),
  entityId: Type.Optional(Uuid('Only entries of this record')),
  from: Type.Optional(Timestamp('Entries at or after this time')),
  to: Type.Optional(Timestamp('Entries at or before this time')),
  ...PaginationQuery,
});
export const AuditListSchema = Envelope(AuditEntrySchema);
