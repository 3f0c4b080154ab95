// The media library: thumbnails of every file of the agent's groups (private ones too), upload by drag and drop or
// file picker with its progress, alt text and public flag, deletion.
import { useRef, useState } from 'preact/hooks';
import '../content/content.css';
import { get, getAll, type Page } from '../api.ts';
import { Thumbnail, fileSize, publicMediaUrl, uploadMedia } from '../content/media.tsx';
import type { Media } from '../content/types.ts';
import { EditorForm, fieldError, showValue } from '../editor-form.tsx';
import { removeRecord, useEditing, useEditor } from '../editor.tsx';
import { Checkbox, SelectField, TextArea } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import type { CityGroup } from '../types.ts';
import { Loaded, Notices, Problem, Title, useResource } from '../ui.tsx';

interface Form {
  alt: string;
  public: boolean;
}

const LABELS: Record<keyof Form, string> = { alt: 'Texte alternatif', public: 'Publique' };
const ALT_HINT = 'Ce que montre l’image, pour les personnes qui ne la voient pas (lu par les lecteurs d’écran).';

function MediaForm({ media, onDone }: { media: Media; onDone: (message: string | null) => void }) {
  const editor = useEditor<Media, Form>({
    key: `media:${media.id}`,
    url: `/admin/media/${media.id}`,
    empty: { alt: '', public: false },
    toForm: (m) => ({ alt: m.alt ?? '', public: m.public }),
    toBody: (f) => ({ alt: f.alt.trim() === '' ? null : f.alt.trim(), public: f.public }),
    onSaved: (m) => onDone(`Média ${quoted(m.filename)} enregistré.`),
  });
  return (
    <EditorForm
      editor={editor}
      id="media-form-title"
      title={() => `Modifier ${quoted(media.filename)}`}
      class="media-form"
      labels={LABELS}
      show={(v, field) => (field === 'public' ? (v ? 'oui' : 'non') : showValue(v))}
      atFields={['alt']}
      onCancel={() => onDone(null)}
    >
      {(f) => (
        <div class="media-form-body">
          <Thumbnail media={media} />
          <div>
            <TextArea label={LABELS.alt} value={f.alt} hint={ALT_HINT} error={fieldError(editor, 'alt')} onInput={(alt) => editor.set({ alt })} />
            <Checkbox label="Publique&nbsp;: les habitants peuvent la voir (pages, articles)" checked={f.public} onChange={(v) => editor.set({ public: v })} />
          </div>
        </div>
      )}
    </EditorForm>
  );
}

function Uploader({ groups, onUploaded }: { groups: CityGroup[]; onUploaded: (media: Media) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState('');
  const [isPublic, setPublic] = useState(true);
  const [groupId, setGroupId] = useState(groups[0]?.id ?? '');
  const [progress, setProgress] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [over, setOver] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  const send = async () => {
    if (!file) return;
    setError(null);
    setProgress(0);
    try {
      const media = await uploadMedia({ file, alt, public: isPublic, cityGroupId: groupId || null }, setProgress);
      setFile(null);
      setAlt('');
      if (input.current) input.current.value = '';
      onUploaded(media);
    } catch (err) {
      setError(err);
      setProgress(null);
    }
  };

  return (
    <form
      class="card"
      aria-labelledby="upload-title"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <h2 id="upload-title">Ajouter un fichier</h2>
      <div
        class={`dropzone${over ? ' over' : ''}`}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const dropped = e.dataTransfer?.files[0];
          if (dropped) (setFile(dropped), setProgress(null), setError(null));
        }}
      >
        <p class="dropzone-hint">Déposez une image ou un PDF ici, ou choisissez-le&nbsp;:</p>
        <label for="upload-file">Fichier (PNG, JPEG, GIF, WebP, AVIF, SVG ou PDF)</label>
        <input
          id="upload-file"
          ref={input}
          type="file"
          accept="image/png,image/jpeg,image/gif,image/webp,image/avif,image/svg+xml,application/pdf"
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            setProgress(null);
            setError(null);
          }}
        />
        <p class="muted" aria-live="polite">
          {file ? `Fichier choisi\u00a0: ${file.name} (${fileSize(file.size)})` : 'Aucun fichier choisi.'}
        </p>
      </div>
      <TextArea label={LABELS.alt} value={alt} hint={ALT_HINT} rows={2} onInput={setAlt} />
      <Checkbox label="Publique&nbsp;: les habitants peuvent la voir (pages, articles)" checked={isPublic} onChange={setPublic} />
      {groups.length > 1 && (
        <SelectField label="Collectivité" value={groupId} options={groups.map((g) => ({ value: g.id, label: g.name }))} onChange={setGroupId} />
      )}
      {progress !== null && (
        <div class="upload-progress">
          <label for="upload-progress">Envoi du fichier&nbsp;: {progress}&nbsp;%</label>
          <progress id="upload-progress" max={100} value={progress}>
            {progress}&nbsp;%
          </progress>
        </div>
      )}
      {error !== null && <Problem error={error} />}
      <div class="actions">
        <button type="submit" class="button" disabled={!file || (progress !== null && progress < 100 && error === null)}>
          Envoyer
        </button>
      </div>
    </form>
  );
}

export default function MediaLibrary({ query }: ScreenProps) {
  const data = useResource('media', async () => ({
    groups: (await get<Page<CityGroup>>('/admin/city-groups?pageSize=100')).data,
    media: await getAll<Media>('/admin/media'),
  }));
  const { editing, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);

  const remove = async (m: Media) => {
    if (!confirm(`Supprimer définitivement ${quoted(m.filename)}\u202f? Les pages et articles qui l’affichent ne la montreront plus.`)) return;
    setProblem(null);
    try {
      await removeRecord(`/admin/media/${m.id}`);
      setStatus(`Média ${quoted(m.filename)} supprimé.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <section>
      <Title text="Médiathèque">Médiathèque</Title>
      <Notices status={status} problem={problem} />
      <Loaded resource={data} what="de la médiathèque">
        {({ groups, media }) => {
          const current = editing ? media.find((m) => m.id === editing) : undefined;
          return (
            <>
              {current ? (
                <MediaForm key={current.id} media={current} onDone={done} />
              ) : (
                <Uploader
                  groups={groups}
                  onUploaded={(m) => {
                    setStatus(`Fichier ${quoted(m.filename)} ajouté à la médiathèque.`);
                    data.reload();
                  }}
                />
              )}
              <h2>Fichiers</h2>
              {media.length === 0 ? (
                <p class="muted">La médiathèque est vide.</p>
              ) : (
                <ul class="media-grid">
                  {media.map((m) => (
                    <li key={m.id} class="media-card">
                      <Thumbnail media={m} />
                      <p class="media-name">{m.filename}</p>
                      <p class="muted media-meta">
                        {m.width && m.height ? `${m.width} × ${m.height} · ` : ''}
                        {fileSize(m.size)}
                        <span class={`tag${m.public ? ' open' : ''}`}>{m.public ? 'publique' : 'privée'}</span>
                      </p>
                      <p class="media-alt">{m.alt ?? <em class="muted">Sans texte alternatif</em>}</p>
                      <div class="actions">
                        <button type="button" class="link-button" onClick={() => open(m.id)}>
                          Modifier<span class="visually-hidden"> {m.filename}</span>
                        </button>
                        {m.public && (
                          <a class="link-button" href={publicMediaUrl(m.id)} target="_blank" rel="noopener">
                            Ouvrir<span class="visually-hidden"> {m.filename}</span>
                          </a>
                        )}
                        <button type="button" class="link-button danger" onClick={() => void remove(m)}>
                          Supprimer<span class="visually-hidden"> {m.filename}</span>
                        </button>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
