import { Type } from 'typebox';
import type { CityGroupTable } from '../db/types.ts';
import { Nullable, PHONE_PATTERN } from '../kernel/schemas.ts';

export { PHONE_PATTERN } from '../kernel/schemas.ts';

/**
 * A city group's contact block (migration 0011): how citizens reach the service when the chat assistant is not
 * offered, or while they wait for an agent. Four optional texts, the same field names in the import bundle, the
 * admin API and the public city group. `contactHours` is written for people (« du lundi au vendredi, de 9 h à
 * 17 h »): the app quotes it when it hands a conversation to an agent.
 */


const LIMITS = { contactPhone: 32, contactEmail: 254, contactHours: 500, contactAddress: 500 } as const;

const descriptions = {
  contactPhone: 'Telephone number citizens may call, as written for them (`02 98 33 50 50`)',
  contactEmail: 'E-mail address citizens may write to',
  contactHours: 'When someone answers, in French, for people (`du lundi au vendredi, de 9 h à 17 h`)',
  contactAddress: 'Postal address of the service, one or more lines',
};

/** The fields as the API shows them: each null when the group publishes none. */
export const GroupContactFields = {
  contactPhone: Nullable(Type.String({ description: descriptions.contactPhone })),
  contactEmail: Nullable(Type.String({ description: descriptions.contactEmail })),
  contactHours: Nullable(Type.String({ description: descriptions.contactHours })),
  contactAddress: Nullable(Type.String({ description: descriptions.contactAddress })),
};

/** The fields of a write (admin API): each optional, null to clear it. */
export const GroupContactWriteFields = {
  contactPhone: Type.Optional(Nullable(Type.String({ pattern: PHONE_PATTERN, maxLength: LIMITS.contactPhone, description: descriptions.contactPhone }))),
  contactEmail: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: LIMITS.contactEmail, description: descriptions.contactEmail }))),
  contactHours: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: LIMITS.contactHours, pattern: '\\S', description: descriptions.contactHours }))),
  contactAddress: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: LIMITS.contactAddress, pattern: '\\S', description: descriptions.contactAddress }))),
};

export interface GroupContact {
  contactPhone: string | null;
  contactEmail: string | null;
  contactHours: string | null;
  contactAddress: string | null;
}

type ContactRow = Pick<CityGroupTable, 'contact_phone' | 'contact_email' | 'contact_hours' | 'contact_address'>;

export const toGroupContact = (row: ContactRow): GroupContact => ({
  contactPhone: row.contact_phone,
  contactEmail: row.contact_email,
  contactHours: row.contact_hours,
  contactAddress: row.contact_address,
});

const trimmed = (text: string | null | undefined) => (text == null ? null : text.trim() || null);

/** The columns of a contact as written (texts trimmed; an e-mail lower-cased). */
export const groupContactColumns = (contact: Partial<GroupContact>): ContactRow => ({
  contact_phone: trimmed(contact.contactPhone),
  contact_email: trimmed(contact.contactEmail)?.toLowerCase() ?? null,
  contact_hours: trimmed(contact.contactHours),
  contact_address: trimmed(contact.contactAddress),
});

export const CONTACT_COLUMNS = ['contact_phone', 'contact_email', 'contact_hours', 'contact_address'] as const;
