// A menu of a site as a tree: items moved up and down (or dragged among their siblings), added, changed, removed,
// each linking to a page of the site, to an address, or to nothing (a heading of sub-items).
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import '../content/content.css';
import { ApiError, get, getAll, request } from '../api.ts';
import { ItemForm, childrenOf, subtree } from '../content/menu-item-form.tsx';
import type { CmsPage, Menu, MenuItem, Site } from '../content/types.ts';
import { removeRecord, useEditing } from '../editor.tsx';
import { quoted } from '../french.ts';
import type { ScreenProps } from '../screens.ts';
import { Breadcrumbs, Loaded, Notices, Title, useResource } from '../ui.tsx';

export default function MenuScreen({ params, query }: ScreenProps) {
  const { menuId } = params;
  const data = useResource(menuId, async () => {
    const menu = await get<Menu>(`/admin/menus/${menuId}`);
    const [site, items, pages] = await Promise.all([
      get<Site>(`/admin/sites/${menu.siteId}`),
      getAll<MenuItem>(`/admin/menus/${menuId}/items`),
      getAll<CmsPage>(`/admin/sites/${menu.siteId}/pages`),
    ]);
    return { menu, site, items, pages };
  });
  const { editing, status, setStatus, open, done } = useEditing(query, data.reload);
  const [problem, setProblem] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [dragged, setDragged] = useState<string | null>(null);
  /** The item just moved with a button, and that button: the focus follows it into the tree read again. */
  const [moved, setMoved] = useState<{ id: string; action: 'up' | 'down'; before: unknown } | null>(null);
  useEffect(() => {
    if (!moved || busy || data.data === moved.before) return;
    setMoved(null);
    const row = document.querySelector(`[data-item="${moved.id}"] > .menu-row`);
    const buttons = row ? [...row.querySelectorAll<HTMLButtonElement>('button[data-move]')] : [];
    // The same button when it still applies, else the other one (an item moved to the top cannot go up).
    const target = buttons.find((b) => b.dataset.move === moved.action && !b.disabled) ?? buttons.find((b) => !b.disabled);
    target?.focus();
  }, [moved, busy, data.data]);

  /** Puts `id` at `index` among its siblings, then renumbers them 1, 2, 3… (each change with its ETag). */
  const reorder = async (items: MenuItem[], id: string, index: number) => {
    const item = items.find((i) => i.id === id)!;
    const siblings = childrenOf(items, item.parentId).filter((i) => i.id !== id);
    siblings.splice(Math.max(0, Math.min(index, siblings.length)), 0, item);
    setBusy(true);
    setProblem(null);
    setStatus(null);
    try {
      for (const [k, sibling] of siblings.entries()) {
        if (sibling.order === k + 1) continue;
        const current = await request<MenuItem>('GET', `/admin/menu-items/${sibling.id}`);
        if (current.data.order !== sibling.order || current.data.parentId !== sibling.parentId) throw new ApiError('stale', 412);
        await request('PATCH', `/admin/menu-items/${sibling.id}`, { body: { order: k + 1 }, ifMatch: current.etag });
      }
      setStatus(`${quoted(item.label)} est maintenant en position ${siblings.indexOf(item) + 1}.`);
    } catch (err) {
      setProblem(
        err instanceof ApiError && err.status === 412
          ? new ApiError('Quelqu’un a modifié ce menu pendant ce temps\u00a0: il est affiché tel qu’il est maintenant. Refaites le déplacement si besoin.', 412)
          : err,
      );
    } finally {
      setBusy(false);
      data.reload();
    }
  };

  const remove = async (item: MenuItem, items: MenuItem[]) => {
    const below = subtree(items, item.id).size - 1;
    if (!confirm(`Supprimer ${quoted(item.label)}${below ? ` et ses ${below} sous-élément${below > 1 ? 's' : ''}` : ''} du menu\u202f?`)) return;
    setProblem(null);
    try {
      await removeRecord(`/admin/menu-items/${item.id}`);
      setStatus(`Élément ${quoted(item.label)} supprimé.`);
      data.reload();
    } catch (err) {
      setProblem(err);
    }
  };

  return (
    <Loaded resource={data} what="du menu">
      {({ menu, site, items, pages }) => {
        const target = (i: MenuItem) => {
          if (i.linkType === 'PAGE') return `page ${quoted(pages.find((p) => p.id === i.pageId)?.title ?? '?')}`;
          if (i.linkType === 'EXTERNAL') return i.externalUrl;
          return 'sous-menu';
        };
        const branch = (parentId: string | null): ComponentChildren => {
          const siblings = childrenOf(items, parentId);
          if (siblings.length === 0) return null;
          return (
            <ol class="menu-tree">
              {siblings.map((i, k) => (
                <li
                  key={i.id}
                  data-item={i.id}
                  class={dragged === i.id ? 'dragging' : undefined}
                  onDragOver={(e) => {
                    // Dropping among the same siblings only: the parent changes through the form.
                    if (dragged && items.find((x) => x.id === dragged)?.parentId === parentId) e.preventDefault();
                  }}
                  onDrop={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    if (dragged && dragged !== i.id) void reorder(items, dragged, k);
                    setDragged(null);
                  }}
                >
                  <div class="menu-row" draggable={!busy} onDragStart={() => setDragged(i.id)} onDragEnd={() => setDragged(null)}>
                    <span class="menu-label">
                      <strong>{i.label}</strong> <span class="muted">→ {target(i)}</span>
                    </span>
                    <span class="menu-actions">
                      <button type="button" class="button small secondary" disabled={busy || k === 0} data-move="up" onClick={() => (setMoved({ id: i.id, action: 'up', before: data.data }), void reorder(items, i.id, k - 1))}>
                        Monter<span class="visually-hidden"> {i.label}</span>
                      </button>
                      <button
                        type="button"
                        class="button small secondary"
                        disabled={busy || k === siblings.length - 1}
                        data-move="down"
                        onClick={() => (setMoved({ id: i.id, action: 'down', before: data.data }), void reorder(items, i.id, k + 1))}
                      >
                        Descendre<span class="visually-hidden"> {i.label}</span>
                      </button>
                      <button type="button" class="link-button" onClick={() => open(i.id)}>
                        Modifier<span class="visually-hidden"> {i.label}</span>
                      </button>
                      <button type="button" class="link-button danger" onClick={() => void remove(i, items)}>
                        Supprimer<span class="visually-hidden"> {i.label}</span>
                      </button>
                    </span>
                  </div>
                  {branch(i.id)}
                </li>
              ))}
            </ol>
          );
        };
        return (
          <section>
            <Breadcrumbs
              items={[
                { href: '/console/sites', label: 'Sites et pages' },
                { href: `/console/sites/${site.id}`, label: site.name },
              ]}
            />
            <Title text={`Menu – ${menu.name}`}>{menu.name}</Title>
            <p class="muted">
              Emplacement&nbsp;: {menu.location}. Déplacez les éléments avec «&nbsp;Monter&nbsp;» et «&nbsp;Descendre&nbsp;» (ou en les glissant parmi leurs voisins).
            </p>
            <Notices status={status} problem={problem} />
            {editing ? (
              <ItemForm key={editing} menuId={menuId} id={editing === 'nouveau' ? null : editing} items={items} pages={pages} onDone={done} />
            ) : (
              <p>
                <button type="button" class="button" onClick={() => open('nouveau')}>
                  Ajouter un élément
                </button>
              </p>
            )}
            {items.length === 0 ? <p class="muted">Ce menu est vide.</p> : <div class="card">{branch(null)}</div>}
          </section>
        );
      }}
    </Loaded>
  );
}
