// A city group's contact block (migration 0011): how citizens reach the service when the assistant is not offered,
// or while they wait for an agent. Shown to every agent; changed by super admins (the API refuses others with 403).
import { EditorForm, fieldError } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { TextArea, TextField } from '../form-fields.tsx';
import type { CityGroup, GroupContact } from '../types.ts';
import { ofName } from '../french.ts';

type Form = Record<keyof GroupContact, string>;

export const CONTACT_LABELS: Form = {
  contactPhone: 'Téléphone',
  contactEmail: 'Adresse e-mail du service',
  contactHours: 'Horaires d’accueil',
  contactAddress: 'Adresse postale',
};

const toForm = (g: CityGroup): Form => ({
  contactPhone: g.contactPhone ?? '',
  contactEmail: g.contactEmail ?? '',
  contactHours: g.contactHours ?? '',
  contactAddress: g.contactAddress ?? '',
});

// An empty field clears the contact (null); the API checks the rest and names the field it refuses.
const toBody = (f: Form) => Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.trim() === '' ? null : v.trim()]));

/** The contact as citizens read it, one line each; nothing when the group publishes none. */
export function ContactLines({ group }: { group: GroupContact }) {
  const lines = (Object.keys(CONTACT_LABELS) as (keyof GroupContact)[]).filter((k) => group[k]);
  if (lines.length === 0) return <p class="muted">Aucune coordonnée publiée pour les habitants.</p>;
  return (
    <dl class="contact">
      {lines.map((k) => (
        <div key={k}>
          <dt>{CONTACT_LABELS[k]}</dt>
          <dd>{group[k]}</dd>
        </div>
      ))}
    </dl>
  );
}

export function GroupContactForm({ groupId, onDone }: { groupId: string; onDone: (message: string | null) => void }) {
  const editor = useEditor<CityGroup, Form>({
    key: `cityGroupContact:${groupId}`,
    url: `/admin/city-groups/${groupId}`,
    empty: toForm({} as CityGroup),
    toForm,
    toBody,
    onSaved: (g) => onDone(`Coordonnées ${ofName(g.name)} enregistrées.`),
  });
  return (
    <EditorForm
      editor={editor}
      id="group-contact-title"
      title={() => 'Coordonnées du service pour les habitants'}
      labels={CONTACT_LABELS}
      atFields={['contactPhone', 'contactEmail', 'contactHours']}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <>
          <TextField
            label={CONTACT_LABELS.contactPhone}
            type="text"
            inputMode="tel"
            value={f.contactPhone}
            hint="Tel qu’on l’écrit, par exemple 02 98 33 50 50."
            error={fieldError(editor, 'contactPhone')}
            onInput={(contactPhone) => editor.set({ contactPhone })}
          />
          <TextField label={CONTACT_LABELS.contactEmail} type="email" value={f.contactEmail} error={fieldError(editor, 'contactEmail')} onInput={(contactEmail) => editor.set({ contactEmail })} />
          <TextField
            label={CONTACT_LABELS.contactHours}
            value={f.contactHours}
            hint="Pour les habitants, par exemple «&nbsp;du lundi au vendredi, de 9 h à 17 h&nbsp;»."
            error={fieldError(editor, 'contactHours')}
            onInput={(contactHours) => editor.set({ contactHours })}
          />
          <TextArea label={CONTACT_LABELS.contactAddress} value={f.contactAddress} onInput={(contactAddress) => editor.set({ contactAddress })} />
        </>
      )}
    </EditorForm>
  );
}
