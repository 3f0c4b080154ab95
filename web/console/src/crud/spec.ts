// The plain records of the console (canned replies, quiz questions, a challenge's badge and series, a waste type's
// materials, a place's attached locations …) described once, as Directus draws its forms from field metadata: each
// field its API name, French label, kind, whether it is required and a line of help; the resource its API paths and
// how its records are named. crud-section.tsx draws the list and the form from it; nothing here draws.
import type { ComponentChildren } from 'preact';
import { dayToTimestamp, frenchDate, localDay, quoted } from '../french.ts';

/**
 * text: one line; long: several lines; email, url: one line of that kind; number: a decimal (a French comma taken);
 * integer; boolean: a checkbox; select: one of `choices`; multi: some of `choices`; date: a calendar day.
 */
export type FieldKind = 'text' | 'long' | 'email' | 'url' | 'number' | 'integer' | 'boolean' | 'select' | 'multi' | 'date';

export interface Choice {
  value: string;
  label: string;
}

/** A field as drawn, whatever its record. */
export interface FieldShape {
  /** Its label, in French. */
  label: string;
  /** `text` when absent. */
  kind?: FieldKind;
  required?: boolean;
  /** A line under the label: an example, or what an empty field means. */
  help?: string;
  maxLength?: number;
  /** What `select` and `multi` offer. */
  choices?: Choice[];
  /** What an empty field sends: null when absent; '' or 0 where the API takes no null. */
  empty?: unknown;
  /** A new record's value, as the API writes it (a select's first choice, a position of 0). */
  initial?: unknown;
  /** Shares a line with the short fields beside it (a number, a select). */
  short?: boolean;
}

export interface FieldSpec<Row> extends FieldShape {
  /** The field's name in the API, which is also the name its refusals give (`field`). */
  name: Extract<keyof Row, string>;
}

/** How sentences name the records: `{ label: 'Question', the: 'la question', feminine: true }`. */
export interface Noun {
  label: string;
  the: string;
  feminine?: boolean;
}

export interface Column<Row> {
  label: string;
  cell: (row: Row) => ComponentChildren;
  class?: string;
}

export interface ResourceSpec<Row extends { id: string }> {
  /** Names the drafts and the form (`quizQuestion:<cityId>`): one per list. */
  key: string;
  noun: Noun;
  /** The records as a whole, the table's name: « Questions du quiz de Brest ». */
  caption: string;
  /** The listing (GET), where a new record is POSTed too unless `createUrl` says otherwise. */
  listUrl: string;
  createUrl?: string;
  /** One record: GET with its ETag, PATCH and DELETE with If-Match. */
  itemUrl: (id: string) => string;
  fields: FieldSpec<Row>[];
  /** The table's columns: a field's name (its value as the agent reads it), or a column of its own. */
  columns: (Extract<keyof Row, string> | Column<Row>)[];
  /** A record as statuses and confirmations name it: its name, its material. */
  nameOf: (row: Row) => string;
  /** What the row's buttons say to screen readers after « Modifier »: `nameOf` when absent. */
  rowLabel?: (row: Row) => string;
  /** The add button, and the title of a new record's form: « Ajouter une question ». */
  addLabel: string;
  /** The table with no row: « Aucune question pour cette commune. » */
  empty: string;
  /** At most this many records (a challenge's one badge): no add button beyond. */
  max?: number;
}

/** What a form holds: text as typed, a checkbox's state, the ids a multi-choice holds. */
export type FormValue = string | boolean | string[];
export type Form = Record<string, FormValue>;

const kindOf = (field: FieldShape): FieldKind => field.kind ?? 'text';
const frenchNumber = (n: number) => n.toLocaleString('fr-FR', { maximumFractionDigits: 10, useGrouping: false });

/** A record's value as its field holds it. */
export function toFormValue(field: FieldShape, value: unknown): FormValue {
  const kind = kindOf(field);
  if (kind === 'boolean') return value === true;
  if (kind === 'multi') return Array.isArray(value) ? value.map(String) : [];
  if (value === null || value === undefined) return '';
  if (kind === 'date') return localDay(String(value));
  if (kind === 'number' && typeof value === 'number') return frenchNumber(value);
  return String(value);
}

/**
 * A field's value as the API takes it: a number as a number, an empty field as its `empty`. What does not read as a
 * number is sent as typed: the API refuses it and names the field, and the form shows its sentence there.
 */
export function toApiValue(field: FieldShape, value: FormValue): unknown {
  const kind = kindOf(field);
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text === '') return field.empty ?? null;
  if (kind === 'number' || kind === 'integer') {
    const n = Number(text.replace(',', '.'));
    return Number.isFinite(n) ? n : text;
  }
  return kind === 'date' ? dayToTimestamp(text) : text;
}

export const toForm = <Row extends { id: string }>(spec: ResourceSpec<Row>, row: Row): Form =>
  Object.fromEntries(spec.fields.map((f) => [f.name, toFormValue(f, row[f.name])]));

export const toBody = <Row extends { id: string }>(spec: ResourceSpec<Row>, form: Form): Record<string, unknown> =>
  Object.fromEntries(spec.fields.map((f) => [f.name, toApiValue(f, form[f.name] ?? '')]));

/** The form of a new record: each field's `initial`, else empty. */
export const emptyForm = <Row extends { id: string }>(spec: ResourceSpec<Row>): Form =>
  Object.fromEntries(spec.fields.map((f) => [f.name, toFormValue(f, f.initial ?? null)]));

/** A value as the agent reads it, in a table's cell or the conflict's table: `Oui`, a choice's label, `12,5`. */
export function shown(field: FieldShape, value: unknown): string {
  const kind = kindOf(field);
  const label = (v: unknown) => field.choices?.find((c) => c.value === v)?.label ?? String(v);
  if (kind === 'boolean') return value ? 'Oui' : 'Non';
  if (kind === 'multi') return Array.isArray(value) && value.length > 0 ? value.map(label).join(', ') : '—';
  if (value === null || value === undefined || value === '') return '—';
  if (kind === 'select') return label(value);
  if (kind === 'date') return frenchDate(/^\d{4}-\d{2}-\d{2}$/.test(String(value)) ? String(value) : localDay(String(value)));
  if (kind === 'number' && typeof value === 'number') return frenchNumber(value);
  return String(value);
}

/** What became of a record, for the status line: `Question «\u00a0Pot de yaourt\u00a0» créée.` */
export function said(noun: Noun, name: string, done: 'créé' | 'enregistré' | 'supprimé'): string {
  return `${noun.label} ${quoted(name)} ${done}${noun.feminine ? 'e' : ''}.`;
}
