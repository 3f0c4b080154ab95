// The one editor of posts and pages: the title, the MDX with its live preview (mdx-editor.tsx), the publication (a
// draft, now, or at a date), deletion; what differs between a post and a page (a page's address and SEO texts, where
// each lives) is its kind, given by its screen (screens/blog-post.tsx, screens/cms-page.tsx).
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import './content.css';
import { messageOf } from '../api.ts';
import { EditorForm, fieldError } from '../editor-form.tsx';
import { removeRecord, useEditor } from '../editor.tsx';
import { TextField } from '../form-fields.tsx';
import { quoted } from '../french.ts';
import { Problem, Status, Title } from '../ui.tsx';
import { MdxEditor, type MediaScope } from './mdx-editor.tsx';
import { PublicationField, publicationProblem, type PublicationForm } from './publication.tsx';
import { navigate } from '../../../shared/router.tsx';

export interface ContentForm extends PublicationForm {
  title: string;
  content: string;
}

export interface ContentRecord {
  id: string;
  title: string;
  content: string;
}

export interface ContentKind<R extends ContentRecord, F extends ContentForm> {
  /** Names the drafts (`blogPost:<id>`). */
  entity: string;
  /** How the screen names it: `{ the: 'l’article', one: 'Article', new: 'Nouvel article', saved: 'Article enregistré' }`. */
  words: { the: string; one: string; new: string; saved: string };
  labels: Record<keyof F & string, string>;
  empty: F;
  toForm: (record: R) => F;
  toBody: (form: F) => unknown;
  itemUrl: (id: string) => string;
  /** The record's screen, to go to once created. */
  href: (record: R) => string;
  /** Whether the record is public already (« Publié » rather than « Publier maintenant »), and its state in words. */
  wasPublished: (record: R) => boolean;
  state: (record: R) => string;
  /** Said after the deletion's question: what else goes with it. */
  removeWarning?: string;
  /** What typing the title changes besides (a new page's address). */
  onTitle?: (title: string, form: F, creating: boolean) => Partial<F>;
  /** Fields between the title and the content (a page's address), and between the content and the publication. */
  afterTitle?: (form: F, set: (patch: Partial<F>) => void, error: (field: string) => string | null) => ComponentChildren;
  afterContent?: (form: F, set: (patch: Partial<F>) => void) => ComponentChildren;
}

export function ContentEditor<R extends ContentRecord, F extends ContentForm>({
  kind,
  id,
  createUrl,
  crumbs,
  intro,
  back,
  afterRemove,
  mediaScope,
}: {
  kind: ContentKind<R, F>;
  /** The record's id; null for a new one, POSTed to `createUrl`. */
  id: string | null;
  createUrl: string;
  /** The breadcrumbs, which may need the record (a page's site). */
  crumbs: (record: R | null) => ComponentChildren;
  /** A line under the title of a new record (its group). */
  intro?: ComponentChildren;
  /** Where cancelling leads. */
  back: (record: R | null) => string;
  /** Where the agent goes once the record is deleted. */
  afterRemove: (record: R) => string;
  /** Whose images the content may insert: its group's (null while not known: every image the agent sees). */
  mediaScope: (record: R | null) => MediaScope | null;
}) {
  const [record, setRecord] = useState<R | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { words } = kind;
  const editor = useEditor<R, F>({
    key: id ? `${kind.entity}:${id}` : `${kind.entity}:new:${createUrl}`,
    url: id ? kind.itemUrl(id) : null,
    createUrl,
    empty: kind.empty,
    toForm: (r) => {
      setRecord(r);
      return kind.toForm(r);
    },
    toBody: kind.toBody,
    onSaved: (r, created) => {
      setStatus(`${words.saved}\u00a0: ${kind.state(r).toLowerCase()}.`);
      if (created) navigate(kind.href(r), { replace: true });
    },
  });
  const f = editor.form;

  if (editor.loadError) {
    return (
      <section>
        {crumbs(null)}
        <Title text={words.one}>{words.one}</Title>
        <Problem error={editor.loadError} />
      </section>
    );
  }

  const remove = async () => {
    if (!id || !record || !confirm(`Supprimer ${words.the} ${quoted(f?.title ?? record.title)}\u202f?${kind.removeWarning ? ` ${kind.removeWarning}` : ''}`)) return;
    try {
      await removeRecord(kind.itemUrl(id));
      editor.discard();
      navigate(afterRemove(record));
    } catch (err) {
      setProblem(messageOf(err));
    }
  };

  const set = (patch: Partial<F>) => editor.set(patch);
  const error = (field: string) => fieldError(editor, field);
  return (
    <section>
      {crumbs(record)}
      <Title text={id ? `${words.one} – ${f?.title ?? ''}` : words.new}>{id ? `Modifier ${words.the}` : words.new}</Title>
      {!id && intro}
      {id && record && <p class="muted">État&nbsp;: {kind.state(record)}</p>}
      {status && <Status>{status}</Status>}
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <EditorForm
        editor={editor}
        label={id ? words.one : words.new}
        class="content-form"
        labels={kind.labels}
        atFields={['title', 'slug']}
        beforeSave={(form) => {
          setStatus(null);
          setProblem(null);
          return publicationProblem(form) === null;
        }}
        onCancel={() => navigate(back(record))}
      >
        {(form) => (
          <>
            <TextField
              label={kind.labels.title}
              value={form.title}
              required
              maxLength={300}
              error={error('title')}
              onInput={(title) => set({ ...kind.onTitle?.(title, form, id === null), title } as Partial<F>)}
            />
            {kind.afterTitle?.(form, set, error)}
            <MdxEditor
              label={kind.labels.content}
              value={form.content}
              mediaScope={mediaScope(record)}
              onInput={(content) => set({ content } as Partial<F>)}
            />
            {kind.afterContent?.(form, set)}
            <PublicationField
              form={form}
              wasPublished={record !== null && kind.wasPublished(record)}
              error={publicationProblem(form)}
              onChange={(patch) => set(patch as Partial<F>)}
            />
          </>
        )}
      </EditorForm>
      {id && record && (
        <p>
          <button type="button" class="link-button danger" onClick={() => void remove()}>
            Supprimer {words.the}
          </button>
        </p>
      )}
    </section>
  );
}
