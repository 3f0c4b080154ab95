import { Type, type Static } from 'typebox';
import { adminSchemas, NonBlank, Timestamp, Uuid } from '../kernel/schemas.ts';

/**
 * Frequently asked questions (docs/api.md, frequently asked questions): a city group's questions and answers, each
 * field described once; the public shape and the admin API's derived from them.
 */

export const MAX_FAQ_QUESTION_LENGTH = 300;
export const MAX_FAQ_ANSWER_LENGTH = 3000;
export const MAX_FAQ_POSITION = 9999;

const POSITION = 'Where it comes in the list, smallest first; ties: the oldest first';
const Position = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_FAQ_POSITION, description });

const FaqFields = {
  question: NonBlank(MAX_FAQ_QUESTION_LENGTH, 'As residents ask it, one line; stored trimmed'),
  answer: NonBlank(MAX_FAQ_ANSWER_LENGTH, 'Plain text; a blank line starts a paragraph; stored trimmed'),
};

export const FaqEntrySchema = Type.Object(
  { id: Uuid(), question: FaqFields.question, answer: FaqFields.answer },
  { title: 'FaqEntry', description: 'A question residents ask the city group, with its answer' },
);
export type FaqEntry = Static<typeof FaqEntrySchema>;

export const CityFaqParams = Type.Object({ cityId: Uuid('City id') });

// ------------------------------------------------------------------ the admin API

export const faqSchemas = adminSchemas(
  Type.Object(
    { ...FaqEntrySchema.properties, position: Position(POSITION), cityGroupId: Uuid('The city group it belongs to'), createdAt: Timestamp(), updatedAt: Timestamp() },
    { title: 'AdminFaqEntry', description: 'A frequently asked question as agents see it, with its place in the list' },
  ),
  { question: FaqFields.question, answer: FaqFields.answer, position: Type.Optional(Position(`${POSITION}; default 0`)) },
  { id: 'Frequently asked question id', description: 'A new frequently asked question' },
);
export type AdminFaqEntry = Static<typeof faqSchemas.item>;
export type CreateFaqEntryInput = Static<typeof faqSchemas.create>;
export type FaqEntryPatch = Static<typeof faqSchemas.patch>;
