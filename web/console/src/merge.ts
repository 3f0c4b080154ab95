// Merging two agents' edits of one record after a 412 (editor.tsx): the version both started from, the form this
// agent typed and the version the other agent saved, compared field by field. Pure, so that it is tested alone.

/** Who changed a field since the common version: this agent, the other one, or both (to different values). */
export interface FieldChange<K extends string> {
  field: K;
  mine: boolean;
  theirs: boolean;
  /** Both changed it to different values: the agent chooses which one to keep. */
  clash: boolean;
}

/** Which value of a clashing field the agent keeps. */
export type Choice = 'mine' | 'theirs';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The fields changed by either side since `base`, in the form's order; a field both set to the same value is no clash. */
export function fieldChanges<F extends object>(base: F, mine: F, theirs: F): FieldChange<keyof F & string>[] {
  const fields = [...new Set([...Object.keys(base), ...Object.keys(mine), ...Object.keys(theirs)])] as (keyof F & string)[];
  return fields.flatMap((field) => {
    const byMe = !same(mine[field], base[field]);
    const byThem = !same(theirs[field], base[field]);
    if (!byMe && !byThem) return [];
    return [{ field, mine: byMe, theirs: byThem, clash: byMe && byThem && !same(mine[field], theirs[field]) }];
  });
}

/** The clashing fields that have no choice yet. */
export function unresolved<K extends string>(changes: FieldChange<K>[], choices: Partial<Record<K, Choice>>): K[] {
  return changes.filter((c) => c.clash && choices[c.field] === undefined).map((c) => c.field);
}

/**
 * Both agents' changes in one form: the other's saved version, with each field only this agent changed taken from its
 * form, and each clashing field as chosen (a clash without a choice throws: ask first, with `unresolved`).
 */
export function mergeVersions<F extends object>(base: F, mine: F, theirs: F, choices: Partial<Record<keyof F & string, Choice>> = {}): F {
  const merged = { ...theirs };
  for (const change of fieldChanges(base, mine, theirs)) {
    const keep = change.clash ? choices[change.field] : change.mine ? 'mine' : 'theirs';
    if (keep === undefined) throw new Error(`No choice for the clashing field ${change.field}`);
    if (keep === 'mine') merged[change.field] = mine[change.field];
  }
  return merged;
}
