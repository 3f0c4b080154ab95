// A place's name and area (docs/api.md, from an address to a collection place): the area drawn on a plan (area-drawing.tsx) or pasted as GeoJSON (a
// Polygon or MultiPolygon in WGS 84, as drawn on geojson.io or exported from a GIS), checked as it is typed; part of
// the place screen's chunk.
import { EditorForm, fieldError } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { TextArea, TextField } from '../form-fields.tsx';
import type { Area, Place } from '../types.ts';
import { AreaDrawing } from './area-drawing.tsx';
import { FIELD_LABELS } from '../field-labels.ts';

interface Form {
  name: string;
  area: string;
}

const LABELS: Record<keyof Form, string> = FIELD_LABELS.collectionPlace;

/** What is wrong with the pasted area, in French, or null (an empty field: no area). */
export function areaProblem(text: string): string | null {
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'Ce texte n’est pas du JSON valide\u00a0: collez l’objet GeoJSON tel quel.';
  }
  const geometry = (value as { type?: string; geometry?: unknown }).type === 'Feature' ? (value as { geometry: unknown }).geometry : value;
  const type = (geometry as { type?: unknown } | null)?.type;
  if (type !== 'Polygon' && type !== 'MultiPolygon') return 'La zone doit être un Polygon ou un MultiPolygon (ou une Feature qui en contient un).';
  if (!Array.isArray((geometry as { coordinates?: unknown }).coordinates)) return 'La zone n’a pas de coordonnées.';
  return null;
}

/** The geometry of a pasted area (a Feature is unwrapped), or null. */
function areaOf(text: string): Area {
  if (text.trim() === '') return null;
  const value = JSON.parse(text) as { type: string; geometry?: Area };
  return value.type === 'Feature' ? (value.geometry ?? null) : (value as Area);
}

export function describeArea(area: Area): string {
  if (!area) return 'Aucune zone\u00a0: le secteur se trouve par ses rues ou ses lieux rattachés.';
  const rings = area.type === 'MultiPolygon' ? (area.coordinates as unknown[][]).length : 1;
  return area.type === 'MultiPolygon' ? `Zone en ${rings} polygones.` : 'Zone d’un polygone.';
}

export function PlaceEditor({ cityId, placeId, onDone }: { cityId: string; placeId: string; onDone: (message: string | null) => void }) {
  const editor = useEditor<Place, Form>({
    key: `place:${placeId}`,
    url: `/admin/places/${placeId}`,
    empty: { name: '', area: '' },
    toForm: (p) => ({ name: p.name, area: p.area ? JSON.stringify(p.area, null, 1) : '' }),
    toBody: (f) => ({ name: f.name.trim(), area: areaOf(f.area) }),
    onSaved: () => onDone('Secteur enregistré.'),
  });
  return (
    <EditorForm
      editor={editor}
      id="place-form-title"
      title={() => 'Nom et zone du secteur'}
      labels={LABELS}
      // The area as typed is checked here first: the save waits for a Polygon or MultiPolygon.
      beforeSave={(f) => areaProblem(f.area) === null}
      atFields={['name', 'area']}
      onCancel={() => onDone(null)}
    >
      {(f) => {
        const problem = areaProblem(f.area);
        return (
          <>
            <TextField label={LABELS.name} value={f.name} required maxLength={200} error={fieldError(editor, 'name')} onInput={(name) => editor.set({ name })} />
            <AreaDrawing cityId={cityId} placeId={placeId} area={problem ? null : areaOf(f.area)} onChange={(area) => editor.set({ area })} />
            <TextArea
              label={LABELS.area}
              rows={6}
              hint="Dessinez la zone sur le plan ci-dessus, ou collez ici le Polygon, le MultiPolygon ou la Feature, en longitude, latitude. Vide&nbsp;: pas de zone."
              value={f.area}
              error={fieldError(editor, 'area')}
              onInput={(area) => editor.set({ area })}
            />
            <p class={problem ? 'field-error' : 'open-now'} aria-live="polite">
              {problem ?? (f.area.trim() ? describeArea(areaOf(f.area)) : 'Pas de zone.')}
            </p>
          </>
        );
      }}
    </EditorForm>
  );
}
