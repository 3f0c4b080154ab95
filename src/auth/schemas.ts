import { Type, type Static } from 'typebox';
import { Nullable, Timestamp, Uuid } from '../kernel/schemas.ts';
import { Envelope, PaginationQuery } from '../kernel/pagination.ts';
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from './passwords.ts';
import { PERMISSIONS } from './permissions.ts';

/** Shapes of the accounts and the login (docs/api.md, the admin API). */

export const MAX_NAME_LENGTH = 200;
/** RFC 5321's longest path, the bound of every e-mail field. */
export const MAX_EMAIL_LENGTH = 254;

const Email = Type.String({ format: 'email', maxLength: MAX_EMAIL_LENGTH, examples: ['awa.diallo@brest-metropole.fr'] });
const PermissionSchema = Type.Enum([...PERMISSIONS]);
const Permissions = Type.Array(PermissionSchema, { maxItems: 20, description: 'Each once (a repeated one counts once)' });
const CityGroupIds = Type.Array(Uuid(), { maxItems: 1000, description: 'The city groups the account works for (a repeated one counts once)' });

export const UserSchema = Type.Object(
  {
    id: Uuid(),
    email: Type.String({ description: 'Lower-cased: an e-mail has one account whatever its case' }),
    name: Type.String(),
    permissions: Type.Array(PermissionSchema),
    cityGroupIds: Type.Array(Uuid()),
    superAdmin: Type.Boolean({ description: 'Manages city groups and every group, whatever `permissions` and `cityGroupIds` say' }),
    active: Type.Boolean({ description: 'An inactive account cannot log in, and its sessions are closed' }),
    createdAt: Timestamp(),
    lastLoginAt: Nullable(Timestamp()),
  },
  { title: 'User', description: 'An agent’s account. The password never leaves the server, not even hashed.' },
);
export type User = Static<typeof UserSchema>;

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: MAX_EMAIL_LENGTH }),
  password: Type.String({ minLength: 1, maxLength: MAX_PASSWORD_LENGTH }),
});

export const SessionSchema = Type.Object(
  {
    accessToken: Type.String({ description: 'The console JWT (docs/console.md), for `Authorization: Bearer`' }),
    expiresAt: Timestamp('When the access token expires: 15 minutes after it was issued'),
    user: UserSchema,
  },
  { title: 'Session' },
);
export type Session = Static<typeof SessionSchema>;

const Password = Type.String({
  minLength: MIN_PASSWORD_LENGTH,
  maxLength: MAX_PASSWORD_LENGTH,
  description: `At least ${MIN_PASSWORD_LENGTH} characters; stored as an argon2id hash`,
});
const Name = Type.String({ minLength: 1, maxLength: MAX_NAME_LENGTH, pattern: '\\S', description: 'Not blank; trimmed' });

export const CreateUserBody = Type.Object({
  email: Email,
  name: Name,
  password: Password,
  permissions: Type.Optional(Permissions),
  cityGroupIds: Type.Optional(CityGroupIds),
  superAdmin: Type.Optional(Type.Boolean({ default: false })),
  active: Type.Optional(Type.Boolean({ default: true })),
});
export type CreateUserInput = Static<typeof CreateUserBody>;

export const PatchUserBody = Type.Partial(
  Type.Object({ email: Email, name: Name, password: Password, permissions: Permissions, cityGroupIds: CityGroupIds, superAdmin: Type.Boolean(), active: Type.Boolean() }),
);
export type UserPatch = Static<typeof PatchUserBody>;

export const UserIdParams = Type.Object({ id: Uuid('Account id') });
export const UserListQuery = Type.Object(PaginationQuery);
export const UserListSchema = Envelope(UserSchema);
