// « Sites autorisés »: a city group's `embedOrigins` (docs/widgets.md, who may show them), the https sites whose
// pages may frame its widgets. Sites are added and removed in the form, then saved whole as one PATCH of
// `embedOrigins` with the group's ETag (an agent of the group holding CITIES may send it; a 412 is the console's
// conflict). The browser only trims what is typed: the API judges and normalises each site (`HTTPS://Www.Brest.fr/` is
// stored `https://www.brest.fr`), and its refusal naming `embedOrigins[2]` is shown at the third site.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';
import { EditorForm, refusedField, useLiveRefusal } from '../editor-form.tsx';
import { useEditor } from '../editor.tsx';
import { Field } from '../form-fields.tsx';
import type { CityGroup } from '../types.ts';
import { Notices } from '../ui.tsx';

interface SitesForm {
  embedOrigins: string[];
}

/** The site a refusal names (`embedOrigins[2]` → the third), with the API's sentence; or null. */
function siteFault(err: unknown): { index: number; message: string } | null {
  if (!(err instanceof ApiError) || err.status !== 400 || !err.field) return null;
  const match = /^embedOrigins\[(\d+)\]/.exec(err.field);
  return match ? { index: Number(match[1]), message: err.message } : null;
}

const showSites = (value: unknown) => {
  const sites = (value as string[] | undefined) ?? [];
  return sites.length === 0 ? 'Aucun site' : sites.join(', ');
};

export function AllowedSites({ groupId, groupName }: { groupId: string; groupName: string }) {
  const [status, setStatus] = useState<string | null>(null);
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  // After a removal the focus goes to the next site's « Retirer », else to the input; after an empty « Ajouter », to the input.
  const [focus, setFocus] = useState<{ site: number } | 'input' | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const editor = useEditor<CityGroup, SitesForm>({
    key: `embedOrigins:${groupId}`,
    url: `/admin/city-groups/${groupId}`,
    empty: { embedOrigins: [] },
    toForm: (g) => ({ embedOrigins: g.embedOrigins }),
    toBody: (f) => ({ embedOrigins: f.embedOrigins }),
    onSaved: (g) =>
      setStatus(g.embedOrigins.length === 0 ? 'Sites autorisés enregistrés\u00a0: aucun autre site ne peut afficher les widgets.' : 'Sites autorisés enregistrés.'),
  });
  // A save's refusal speaks of the list as it was sent: once the list changes, it is no longer shown.
  const { saveError } = useLiveRefusal(editor);
  const fault = siteFault(saveError);
  const listFault = !fault && refusedField(saveError) === 'embedOrigins' ? (saveError as ApiError).message : null;
  const sites = editor.form?.embedOrigins ?? [];

  useEffect(() => {
    if (focus === null) return;
    const target = focus === 'input' ? input.current : document.querySelector<HTMLElement>(`[data-site="${focus.site}"] [data-control="remove"]`);
    target?.focus();
    setFocus(null);
  }, [focus]);

  const add = () => {
    const site = typed.trim();
    if (site === '') {
      setTypedError('Saisissez l’adresse d’un site, par exemple https://www.plouzane.fr.');
      setFocus('input');
      return;
    }
    editor.set({ embedOrigins: [...sites, site] });
    setTyped('');
    setTypedError(null);
    setStatus(`Site ${site} ajouté à la liste\u00a0: enregistrez pour l’autoriser.`);
  };
  const remove = (i: number) => {
    const next = sites.filter((_, j) => j !== i);
    editor.set({ embedOrigins: next });
    setStatus(`Site ${sites[i]} retiré de la liste\u00a0: enregistrez pour ne plus l’autoriser.`);
    setFocus(next.length === 0 ? 'input' : { site: Math.min(i, next.length - 1) });
  };

  return (
    <>
      <h2>Sites autorisés</h2>
      <p>
        Seuls les sites en https de cette liste peuvent afficher les widgets des communes de {groupName}&nbsp;; une liste vide n’en autorise
        aucun.
      </p>
      <Notices status={status} problem={null} />
      <EditorForm
        editor={editor}
        label="Sites autorisés"
        labels={{ embedOrigins: 'Sites autorisés' }}
        show={showSites}
        atFields={['embedOrigins']}
        beforeSave={() => {
          // « ajouté à la liste : enregistrez… » no longer holds once saving.
          setStatus(null);
          return true;
        }}
        onCancel={() => {
          editor.reload();
          setTyped('');
          setTypedError(null);
          setStatus('Modifications abandonnées.');
        }}
      >
        {(f) => (
          <>
            {f.embedOrigins.length === 0 ? (
              <p class="muted">Aucun site autorisé&nbsp;: les widgets ne s’affichent que dans Collecte.</p>
            ) : (
              <ul class="sites" aria-label="Sites autorisés">
                {f.embedOrigins.map((site, i) => {
                  const wrong = fault?.index === i ? fault : null;
                  return (
                    <li key={`${i}:${site}`} data-site={i} class={wrong ? 'invalid' : undefined}>
                      <code>{site}</code>
                      <button
                        type="button"
                        class="link-button danger"
                        data-control="remove"
                        aria-describedby={wrong ? `site-error-${i}` : undefined}
                        onClick={() => remove(i)}
                      >
                        Retirer<span class="visually-hidden"> {site}</span>
                      </button>
                      {wrong && (
                        <p class="field-error" id={`site-error-${i}`}>
                          {wrong.message}
                        </p>
                      )}
                    </li>
                  );
                })}
              </ul>
            )}
            {listFault && <p class="field-error">{listFault}</p>}
            <Field label="Ajouter un site" hint="Son adresse en https, sans chemin, par exemple https://www.plouzane.fr." error={typedError}>
              {({ id, describedBy, invalid }) => (
                <div class="add-site">
                  <input
                    id={id}
                    ref={input}
                    type="text"
                    inputMode="url"
                    autocomplete="off"
                    spellcheck={false}
                    maxLength={300}
                    value={typed}
                    aria-describedby={describedBy}
                    aria-invalid={invalid || undefined}
                    onInput={(e) => {
                      setTyped(e.currentTarget.value);
                      setTypedError(null);
                    }}
                    onKeyDown={(e) => {
                      // Enter adds the site (it does not save the form).
                      if (e.key === 'Enter') {
                        e.preventDefault();
                        add();
                      }
                    }}
                  />
                  <button type="button" class="button secondary" onClick={add}>
                    Ajouter
                  </button>
                </div>
              )}
            </Field>
          </>
        )}
      </EditorForm>
    </>
  );
}
