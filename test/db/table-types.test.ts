/**
 * src/db/types.ts describes the tables to Kysely by hand, and nothing else holds it to the migrations: a column
 * added without its type, or a type left behind by a dropped column, compiles and fails only at run time. This file
 * migrates a fresh database, reads its columns from information_schema, and compares them with what types.ts
 * declares, read with the TypeScript compiler API (the file's syntax, not the type checker: a few readable rules).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { sql } from 'kysely';
import type { Database } from '../../src/db/database.ts';
import { createTestDatabase, testDatabaseKinds } from '../helpers/database.ts';

const TYPES_FILE = path.resolve(import.meta.dirname, '../../src/db/types.ts');

/** Kysely's migrator keeps its bookkeeping in these; they are not the application's tables. */
const MIGRATOR_TABLES = new Set(['kysely_migration', 'kysely_migration_lock']);

/** What a column's TypeScript type says once `Generated<…>`, `ColumnType<…>` and the file's aliases are seen through. */
interface DeclaredColumn {
  /** The kinds of value a select gives: string, number, bigint, boolean, Date, array, object, unknown. */
  kinds: Set<string>;
  nullable: boolean;
  /** An insert may leave it out: `Generated<…>`, or a `ColumnType` whose insert type takes `undefined`. */
  optionalOnInsert: boolean;
  /** The type as written, for the messages. */
  written: string;
}

type DeclaredTables = Map<string, Map<string, DeclaredColumn>>;

interface DatabaseColumn {
  table_name: string;
  column_name: string;
  is_nullable: 'YES' | 'NO';
  data_type: string;
  column_default: string | null;
  is_identity: 'YES' | 'NO';
  is_generated: 'ALWAYS' | 'NEVER';
}

/**
 * The TypeScript kinds each PostgreSQL data type may be declared as; null: any (JSON holds whatever was written).
 * A data type missing here fails the test, to be given its rule.
 */
const KINDS_FOR_DATA_TYPE: Record<string, readonly string[] | null> = {
  text: ['string'],
  'character varying': ['string'],
  character: ['string'],
  uuid: ['string'],
  smallint: ['number'],
  integer: ['number'],
  real: ['number'],
  'double precision': ['number'],
  numeric: ['number'],
  // int8: node-postgres reads it as text, PGlite as a number (a bigint past 2^53), so types.ts says string, number
  // or both, depending on how the column is used; any of the three is right.
  bigint: ['string', 'number', 'bigint'],
  boolean: ['boolean'],
  'timestamp with time zone': ['Date'],
  'timestamp without time zone': ['Date'],
  // The drivers read a date as a Date; the repositories that read a calendar day cast it (`day::text`), and
  // types.ts then says string.
  date: ['Date', 'string'],
  json: null,
  jsonb: null,
  ARRAY: ['array'],
  // Both drivers read a bytea as bytes (a Buffer on node-postgres, a Uint8Array on PGlite).
  bytea: ['Uint8Array'],
};

function readDeclaredTables(file: string): DeclaredTables {
  const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const interfaces = new Map<string, ts.InterfaceDeclaration>();
  const aliases = new Map<string, ts.TypeNode>();
  for (const statement of source.statements) {
    if (ts.isInterfaceDeclaration(statement)) interfaces.set(statement.name.text, statement);
    else if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement.type);
  }

  /** Adds to `column` what `node` says of the value a select gives (and, through ColumnType, of inserts). */
  function addTypeOf(node: ts.TypeNode, column: DeclaredColumn): void {
    if (ts.isParenthesizedTypeNode(node)) return addTypeOf(node.type, column);
    if (ts.isUnionTypeNode(node)) return node.types.forEach((member) => addTypeOf(member, column));
    if (ts.isArrayTypeNode(node)) return void column.kinds.add('array');
    if (ts.isTypeLiteralNode(node)) return void column.kinds.add('object');
    if (ts.isLiteralTypeNode(node)) {
      if (node.literal.kind === ts.SyntaxKind.NullKeyword) column.nullable = true;
      else if (ts.isStringLiteral(node.literal)) column.kinds.add('string');
      else if (ts.isNumericLiteral(node.literal)) column.kinds.add('number');
      else column.kinds.add('boolean');
      return;
    }
    const keyword = KEYWORD_KINDS.get(node.kind);
    if (keyword) return void column.kinds.add(keyword);
    if (ts.isTypeReferenceNode(node)) {
      const name = node.typeName.getText(source);
      const [selectType, insertType] = node.typeArguments ?? [];
      if (name === 'Generated') {
        column.optionalOnInsert = true;
        return addTypeOf(selectType, column);
      }
      if (name === 'ColumnType') {
        if (takesUndefined(insertType)) column.optionalOnInsert = true;
        return addTypeOf(selectType, column);
      }
      if (name === 'Date') return void column.kinds.add('Date');
      if (name === 'Uint8Array') return void column.kinds.add('Uint8Array');
      if (name === 'Array') return void column.kinds.add('array');
      if (name === 'Record' || interfaces.has(name)) return void column.kinds.add('object');
      const alias = aliases.get(name);
      if (alias) return addTypeOf(alias, column);
    }
    throw new Error(`types.ts: no rule for the type ${node.getText(source)} (column type ${column.written})`);
  }

  function takesUndefined(node: ts.TypeNode | undefined): boolean {
    if (!node) return false;
    if (ts.isParenthesizedTypeNode(node)) return takesUndefined(node.type);
    if (ts.isUnionTypeNode(node)) return node.types.some(takesUndefined);
    if (ts.isTypeReferenceNode(node)) return takesUndefined(aliases.get(node.typeName.getText(source)));
    return node.kind === ts.SyntaxKind.UndefinedKeyword;
  }

  const db = interfaces.get('DB');
  if (!db) throw new Error('types.ts declares no DB interface');
  const tables: DeclaredTables = new Map();
  for (const entry of db.members) {
    if (!ts.isPropertySignature(entry) || !entry.type || !ts.isTypeReferenceNode(entry.type)) {
      throw new Error(`types.ts: DB entry ${entry.getText(source)} is not \`table: SomeTable\``);
    }
    const tableName = propertyName(entry);
    const interfaceName = entry.type.typeName.getText(source);
    const table = interfaces.get(interfaceName);
    if (!table) throw new Error(`types.ts: DB.${tableName} names ${interfaceName}, which is no interface of the file`);
    const columns = new Map<string, DeclaredColumn>();
    for (const member of table.members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const column: DeclaredColumn = { kinds: new Set(), nullable: false, optionalOnInsert: false, written: member.type.getText(source) };
      addTypeOf(member.type, column);
      columns.set(propertyName(member), column);
    }
    tables.set(tableName, columns);
  }
  return tables;
}

const KEYWORD_KINDS = new Map<ts.SyntaxKind, string>([
  [ts.SyntaxKind.StringKeyword, 'string'],
  [ts.SyntaxKind.NumberKeyword, 'number'],
  [ts.SyntaxKind.BigIntKeyword, 'bigint'],
  [ts.SyntaxKind.BooleanKeyword, 'boolean'],
  [ts.SyntaxKind.UnknownKeyword, 'unknown'],
  [ts.SyntaxKind.AnyKeyword, 'unknown'],
]);

function propertyName(member: ts.PropertySignature): string {
  const { name } = member;
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  throw new Error(`types.ts: property ${name.getText()} has a computed name`);
}

async function readDatabaseColumns(database: Database): Promise<Map<string, Map<string, DatabaseColumn>>> {
  const { rows } = await sql<DatabaseColumn>`
    SELECT c.table_name, c.column_name, c.is_nullable, c.data_type, c.column_default, c.is_identity, c.is_generated
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
    WHERE c.table_schema = ${database.schema ?? 'public'} AND t.table_type = 'BASE TABLE'
    ORDER BY c.table_name, c.ordinal_position
  `.execute(database.db);
  const tables = new Map<string, Map<string, DatabaseColumn>>();
  for (const row of rows) {
    if (MIGRATOR_TABLES.has(row.table_name)) continue;
    if (!tables.has(row.table_name)) tables.set(row.table_name, new Map());
    tables.get(row.table_name)!.set(row.column_name, row);
  }
  return tables;
}

/** Each column present on both sides, with both descriptions. */
function* pairedColumns(actual: Map<string, Map<string, DatabaseColumn>>, declared: DeclaredTables) {
  for (const [table, columns] of actual) {
    for (const [name, column] of columns) {
      const type = declared.get(table)?.get(name);
      if (type) yield { where: `${table}.${name}`, column, type };
    }
  }
}

function missingFrom<T>(names: Iterable<T>, other: { has(name: T): boolean }): T[] {
  return [...names].filter((name) => !other.has(name));
}

for (const kind of testDatabaseKinds()) {
  describe(`src/db/types.ts against the migrated schema (${kind})`, () => {
    let database: Database;
    let actual: Map<string, Map<string, DatabaseColumn>>;
    const declared = readDeclaredTables(TYPES_FILE);

    before(async () => {
      database = await createTestDatabase(kind);
      actual = await readDatabaseColumns(database);
    });
    after(() => database?.close());

    it('declares in DB every table of the database, and no table the database lacks', () => {
      assert.ok(actual.size > 0, 'the migrated database has no table: wrong schema?');
      const problems = [
        ...missingFrom(actual.keys(), declared).map((table) => `table ${table}: in the database, missing from DB in types.ts`),
        ...missingFrom(declared.keys(), actual).map((table) => `table ${table}: in DB in types.ts, not in the database`),
      ];
      assert.deepEqual(problems, []);
    });

    it('declares the columns of each table, no more and no fewer', () => {
      const problems: string[] = [];
      for (const [table, columns] of actual) {
        const types = declared.get(table);
        if (!types) continue;
        for (const name of missingFrom(columns.keys(), types)) problems.push(`${table}.${name}: in the database, missing from types.ts`);
        for (const name of missingFrom(types.keys(), columns)) problems.push(`${table}.${name}: in types.ts, not in the database`);
      }
      assert.deepEqual(problems, []);
    });

    it('says `| null` of exactly the columns that accept null', () => {
      const problems: string[] = [];
      for (const { where, column, type } of pairedColumns(actual, declared)) {
        const nullable = column.is_nullable === 'YES';
        if (nullable && !type.nullable) problems.push(`${where}: nullable in the database, types.ts says ${type.written} (no | null)`);
        if (!nullable && type.nullable) problems.push(`${where}: NOT NULL in the database, types.ts says ${type.written}`);
      }
      assert.deepEqual(problems, []);
    });

    it('gives each column a TypeScript type of its data type’s family', () => {
      const problems: string[] = [];
      for (const { where, column, type } of pairedColumns(actual, declared)) {
        if (!(column.data_type in KINDS_FOR_DATA_TYPE)) {
          problems.push(`${where}: no rule for the data type ${column.data_type}; add one to KINDS_FOR_DATA_TYPE`);
          continue;
        }
        const allowed = KINDS_FOR_DATA_TYPE[column.data_type];
        if (allowed === null) continue;
        const wrong = [...type.kinds].filter((k) => !allowed.includes(k));
        if (wrong.length > 0 || type.kinds.size === 0) {
          problems.push(`${where}: ${column.data_type} in the database, types.ts says ${type.written} (${allowed.join(' or ')} expected)`);
        }
      }
      assert.deepEqual(problems, []);
    });

    it('lets an insert leave out only the columns the database can fill itself', () => {
      // Generated<…>, or a ColumnType taking undefined on insert, lets the compiler accept an insert without the column;
      // a NOT NULL column with no default, identity or generation would then fail at run time.
      const problems: string[] = [];
      for (const { where, column, type } of pairedColumns(actual, declared)) {
        const fillsItself = column.column_default !== null || column.is_identity === 'YES' || column.is_generated === 'ALWAYS';
        if (type.optionalOnInsert && column.is_nullable === 'NO' && !fillsItself) {
          problems.push(`${where}: types.ts says ${type.written}, optional on insert, but the column is NOT NULL with no default`);
        }
      }
      assert.deepEqual(problems, []);
    });
  });
}
