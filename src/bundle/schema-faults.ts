import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { BundleSchema } from './schema.ts';
import { childPath, type RecordFault } from '../domain/rules/faults.ts';
import { bundleShapeMessage } from '../kernel/validation-messages.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

let compiled: ValidateFunction | null = null;

function validator(): ValidateFunction {
  if (!compiled) {
    // allErrors: every fault of the file at once; verbose: gives each error its schema, for `errorMessage`.
    const ajv = new Ajv({ allErrors: true, verbose: true, strict: false });
    addFormats(ajv);
    compiled = ajv.compile(BundleSchema);
  }
  return compiled;
}

/** Ajv's `/cities/0/wasteTypes/1` → `cities[0].wasteTypes[1]`. */
export function pointerToPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<string>((acc, seg) => childPath(acc, /^\d+$/.test(seg) ? Number(seg) : seg), '');
}

/**
 * Checks the shape of a bundle against the schema and returns every fault with its JSON path.
 * Optional fields are `X | null` unions: Ajv reports each failed branch plus the union itself;
 * those are folded into one message per field.
 */
export function schemaFaults(bundle: unknown): RecordFault[] {
  const validate = validator();
  if (validate(bundle)) return [];
  const errors = validate.errors ?? [];
  const nullable = new Set<string>();
  const allowed = new Map<string, unknown[]>();
  const kept: ErrorObject[] = [];
  for (const error of errors) {
    if (error.keyword === 'anyOf') continue;
    if (error.keyword === 'type' && error.params.type === 'null') {
      nullable.add(error.instancePath);
      continue;
    }
    if (error.keyword === 'const') {
      const values = allowed.get(error.instancePath);
      if (values) {
        values.push(error.params.allowedValue);
        continue;
      }
      allowed.set(error.instancePath, [error.params.allowedValue]);
    }
    kept.push(error);
  }
  const faults: RecordFault[] = [];
  const seen = new Set<string>();
  for (const error of kept) {
    let path = pointerToPath(error.instancePath);
    if (error.keyword === 'required') path = childPath(path, String(error.params.missingProperty));
    const message = bundleShapeMessage(error, nullable.has(error.instancePath), allowed.get(error.instancePath));
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    faults.push({ path, message });
  }
  return faults;
}
