// « Dans mon agenda », loaded on first use (the calendar's first screen ships without it): the iCalendar feed (with an
// optional alarm the evening before) and « Me prévenir la veille », reminders by Web Push or e-mail (docs/api.md, reminders).
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, del, get, getLive, messageOf, post } from '../api.ts';
import { deviceId } from '../store.ts';
import type { ReminderConfig, ReminderSubscription } from '../types.ts';
import { FieldError, Loading, Problem, useResource } from '../ui.tsx';

const NBSP = '\u00a0';

export interface AgendaProps {
  cityId: string;
  placeId: string;
  placeName: string;
  /** The place's waste types, in the calendar's order. */
  types: { id: string; name: string }[];
}

/** « 19 h », « 19 h 30 » for `HH:MM` (non-breaking spaces). */
export function hourInFrench(time: string): string {
  const [hour, minute] = time.split(':');
  return minute === '00' ? `${Number(hour)}${NBSP}h` : `${Number(hour)}${NBSP}h${NBSP}${minute}`;
}

export function Agenda(props: AgendaProps) {
  const config = useResource('reminders-config', () => get<ReminderConfig>('/public/reminders/config'));
  const [time, setTime] = useState<string | null>(null);
  const chosen = time ?? config.data?.defaultTime ?? '19:00';
  const base = `/public/cities/${props.cityId}/places/${props.placeId}/calendar.ics`;
  return (
    <>
      <Subscribe base={base} fileName={`collecte-${props.placeName}.ics`} alarm={chosen} />
      <section class="card reminders screen-only" aria-labelledby="reminders-title">
        <h3 id="reminders-title">Me prévenir la veille</h3>
        {config.loading && <Loading what="des rappels" />}
        {config.error != null && <Problem error={config.error} retry={config.reload} />}
        {config.data && <Reminders {...props} config={config.data} time={chosen} setTime={setTime} />}
      </section>
    </>
  );
}

/** How long the page waits, after « S'abonner », to see whether an agenda application took the link. */
const HANDLER_WAIT_MS = 1500;

/**
 * The iCalendar subscription: `webcal://` opens the device's agenda where it has one; elsewhere (a desktop browser
 * without an agenda application) nothing happens, so the page says so and offers the link to copy and Google Agenda.
 * With « avec un rappel », every link carries `?alarm=HH:MM`: the agenda rings the evening before each collection.
 * With « sans les collectes annulées », `cancelled=false`: the feed leaves out the cancelled collections, which it
 * otherwise lists with `STATUS:CANCELLED` (docs/api.md, collections that move and service notices), for the agendas that ignore that status and would show them.
 */
function Subscribe({ base, fileName, alarm }: { base: string; fileName: string; alarm: string }) {
  const [hint, setHint] = useState<string | null>(null);
  const [withAlarm, setWithAlarm] = useState(false);
  const [withoutCancelled, setWithoutCancelled] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const query = [withAlarm && `alarm=${alarm}`, withoutCancelled && 'cancelled=false'].filter(Boolean).join('&');
  const feed = `${location.host}${base}${query ? `?${query}` : ''}`;
  const webcal = `webcal://${feed}`;
  const https = `${location.protocol}//${feed}`;
  const google = `https://calendar.google.com/calendar/render?cid=${encodeURIComponent(webcal)}`;

  const subscribe = () => {
    setHint(null);
    clearTimeout(timer.current);
    // An agenda application that opens hides the page or takes the focus; otherwise the link did nothing.
    timer.current = setTimeout(() => {
      if (document.visibilityState === 'visible' && document.hasFocus()) {
        setHint(`Rien ne s'est ouvert${NBSP}? Cet appareil n'a pas d'application d'agenda pour ce lien${NBSP}: copiez le lien ci-dessous dans votre agenda, ou ajoutez-le à Google Agenda.`);
      }
    }, HANDLER_WAIT_MS);
  };
  const copy = async () => {
    try {
      // A browser may leave the write pending (no focus, a prompt): after a second, the link is shown instead.
      await Promise.race([navigator.clipboard.writeText(https), new Promise((_, reject) => setTimeout(reject, 1000))]);
      setHint(`Lien copié${NBSP}: dans votre agenda, ajoutez un agenda «${NBSP}à partir d'une URL${NBSP}» et collez-le.`);
    } catch {
      setHint(`Copiez ce lien dans votre agenda${NBSP}: ${https}`);
    }
  };

  return (
    <div class="card subscribe screen-only">
      <p>Recevez les jours de collecte de votre secteur dans l'agenda de votre téléphone{NBSP}: ils se mettent à jour tout seuls.</p>
      <p class="check">
        <input id="feed-alarm" type="checkbox" checked={withAlarm} onChange={(e) => setWithAlarm((e.target as HTMLInputElement).checked)} />{' '}
        <label for="feed-alarm">avec un rappel la veille à {hourInFrench(alarm)}</label>
      </p>
      <p class="check">
        <input id="feed-no-cancelled" type="checkbox" aria-describedby="feed-no-cancelled-why" checked={withoutCancelled} onChange={(e) => setWithoutCancelled((e.target as HTMLInputElement).checked)} />{' '}
        <label for="feed-no-cancelled">sans les collectes annulées</label>{' '}
        <span id="feed-no-cancelled-why" class="muted">
          (pour les agendas qui les montrent comme des collectes)
        </span>
      </p>
      <p class="actions">
        <a class="button" href={webcal} onClick={subscribe}>
          S'abonner au calendrier
        </a>
        <a class="button secondary" href={google} target="_blank" rel="noopener">
          Ajouter à Google Agenda
        </a>
        <button type="button" class="button secondary" onClick={copy}>
          Copier le lien
        </button>
        <a class="button secondary" href={https} download={fileName}>
          Télécharger le fichier .ics
        </a>
      </p>
      <p class="subscribe-link muted">
        Lien de l'agenda{NBSP}: <span class="url">{https}</span>
      </p>
      {hint && (
        <p class="notice" role="status">
          {hint}
        </p>
      )}
    </div>
  );
}

/** Web Push where the browser has it (not iOS outside a home-screen app, for one). */
const pushAvailable = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** The VAPID key, base64url, as the bytes PushManager.subscribe() takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (base64url.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** The app's service worker registration: the one main.tsx registered, or registered now. */
async function registration(): Promise<ServiceWorkerRegistration> {
  if (!(await navigator.serviceWorker.getRegistration())) await navigator.serviceWorker.register('/sw.js');
  return navigator.serviceWorker.ready;
}

/** Why push cannot be used on this device, said to the citizen. */
class PushRefused extends Error {}

async function pushSubscription(publicKey: string): Promise<PushSubscriptionJSON> {
  // The browser asks only now, on the citizen's tap.
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushRefused(`Les notifications sont refusées pour ce site sur cet appareil.`);
  try {
    const manager = (await registration()).pushManager;
    const existing = await manager.getSubscription();
    const subscription = existing ?? (await manager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) }));
    return subscription.toJSON();
  } catch {
    throw new PushRefused(`Ce navigateur n'a pas pu activer les notifications.`);
  }
}

function Reminders(props: AgendaProps & { config: ReminderConfig; time: string; setTime: (time: string) => void }) {
  const { config, types, time, setTime } = props;
  const device = deviceId();
  const [version, setVersion] = useState(0);
  const mine = useResource(`reminders:${device}:${version}`, () => getLive<ReminderSubscription[]>(`/public/reminders/subscriptions/${device}`));
  const [bins, setBins] = useState<Set<string>>(() => new Set(types.map((t) => t.id)));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<string | null>(null);
  const [pushProblem, setPushProblem] = useState<string | null>(pushAvailable() ? null : `Cet appareil ne peut pas recevoir de notifications de ce site.`);
  const [email, setEmail] = useState('');
  // The server's refusal of the address, shown under its field.
  const [emailError, setEmailError] = useState<string | null>(null);
  const here = (mine.data ?? []).filter((s) => s.placeId === props.placeId);
  const nameOf = new Map(types.map((t) => [t.id, t.name]));

  const choice = () => {
    if (bins.size === 0) throw new ApiError(`Bacs${NBSP}: cochez au moins un bac.`, 400);
    // Every bin: [] (the place's bins, including one added later).
    const wasteTypeIds = bins.size === types.length ? [] : types.filter((t) => bins.has(t.id)).map((t) => t.id);
    return { deviceId: device, cityId: props.cityId, placeId: props.placeId, wasteTypeIds, time };
  };
  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError(null);
    setEmailError(null);
    setDone(null);
    try {
      setDone(await work());
      setVersion((n) => n + 1);
    } catch (err) {
      if (err instanceof PushRefused) setPushProblem(err.message);
      else if (err instanceof ApiError && err.field === 'email') {
        setEmailError(err.message);
        requestAnimationFrame(() => document.getElementById('reminder-email')?.focus());
      } else setError(err);
    } finally {
      setBusy(false);
    }
  };
  const byPush = () =>
    run(async () => {
      const body = choice();
      const webPush = await pushSubscription(config.webPushPublicKey);
      await post('/public/reminders/subscriptions', { ...body, channel: 'WEB_PUSH', webPush });
      return `C'est noté${NBSP}: une notification la veille de chaque collecte, à ${hourInFrench(time)}.`;
    });
  const byEmail = (event: Event) => {
    event.preventDefault();
    return run(async () => {
      const body = choice();
      const answer = await post<{ status: string }>('/public/reminders/subscriptions', { ...body, channel: 'EMAIL', email: email.trim() });
      return answer.status === 'PENDING'
        ? `Presque fini${NBSP}: ouvrez l'e-mail que nous venons d'envoyer à ${email.trim()} et confirmez votre adresse. Aucun rappel n'est envoyé avant.`
        : `C'est noté${NBSP}: un e-mail la veille de chaque collecte, à ${hourInFrench(time)}.`;
    });
  };
  const stop = (id: string) =>
    run(async () => {
      await del(`/public/reminders/subscriptions/${id}?deviceId=${encodeURIComponent(device)}`);
      return `Ce rappel est supprimé.`;
    });
  /** No push and no e-mail: the calendar subscription above, its alarm the evening before ticked, the focus on its link. */
  const alarmInAgenda = () => {
    const alarm = document.getElementById('feed-alarm') as HTMLInputElement | null;
    if (alarm && !alarm.checked) alarm.click();
    document.querySelector<HTMLElement>('.subscribe a.button')?.focus();
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(bins);
    if (on) next.add(id);
    else next.delete(id);
    setBins(next);
  };

  return (
    <>
      <p>La veille de chaque collecte, un message vous dit quels bacs sortir.</p>
      {here.length > 0 && (
        <ul class="reminder-list" aria-label="Rappels de cet appareil pour ce secteur">
          {here.map((s) => (
            <li key={s.id}>
              <span>
                {s.channel === 'EMAIL' ? `Par e-mail à ${s.email}` : 'Par notification'}, la veille à {hourInFrench(s.time)}
                {' · '}
                {s.wasteTypeIds.length === 0 ? 'tous les bacs' : s.wasteTypeIds.map((id) => nameOf.get(id) ?? 'un bac retiré').join(', ')}
                {s.status === 'PENDING' && <strong> (adresse à confirmer depuis l'e-mail reçu)</strong>}
              </span>{' '}
              <button type="button" class="button secondary" disabled={busy} onClick={() => stop(s.id)}>
                Ne plus me prévenir
              </button>
            </li>
          ))}
        </ul>
      )}
      {mine.error != null && <Problem error={mine.error} retry={mine.reload} />}
      <div class="reminder-form">
        <p>
          <label for="reminder-time">Heure du rappel, la veille</label>{' '}
          <input id="reminder-time" type="time" required value={time} onInput={(e) => (e.target as HTMLInputElement).value && setTime((e.target as HTMLInputElement).value)} />
        </p>
        <fieldset>
          <legend>Bacs</legend>
          {types.map((t) => (
            <p key={t.id} class="check">
              <input id={`reminder-bin-${t.id}`} type="checkbox" checked={bins.has(t.id)} onChange={(e) => toggle(t.id, (e.target as HTMLInputElement).checked)} />{' '}
              <label for={`reminder-bin-${t.id}`}>{t.name}</label>
            </p>
          ))}
        </fieldset>
        {pushProblem === null ? (
          <p class="actions">
            <button type="button" class="button" disabled={busy} onClick={byPush}>
              Me prévenir la veille
            </button>
          </p>
        ) : (
          <div class="notice" role="status">
            <p>
              {pushProblem}
              {config.emailEnabled ? ` Recevez plutôt le rappel par e-mail${NBSP}:` : ` Abonnez-vous plutôt au calendrier de votre secteur${NBSP}: votre agenda vous prévient la veille à ${hourInFrench(time)}.`}
            </p>
            {!config.emailEnabled && (
              <p>
                <button type="button" class="button secondary" onClick={alarmInAgenda}>
                  Ajouter un rappel à mon agenda
                </button>
              </p>
            )}
          </div>
        )}
        {pushProblem !== null && config.emailEnabled && (
          <form class="reminder-email" noValidate onSubmit={byEmail}>
            <label for="reminder-email">Votre adresse e-mail</label>
            <FieldError id="reminder-email" error={emailError ?? undefined} />
            <div class="inline">
              <input
                id="reminder-email"
                type="email"
                required
                autocomplete="email"
                value={email}
                aria-invalid={emailError ? 'true' : undefined}
                aria-describedby={emailError ? 'reminder-email-error' : undefined}
                onInput={(e) => setEmail((e.target as HTMLInputElement).value)}
              />
              <button type="submit" class="button" disabled={busy}>
                Recevoir les rappels par e-mail
              </button>
            </div>
          </form>
        )}
      </div>
      {error != null && (
        <div class="problem" role="alert">
          <p>{messageOf(error)}</p>
        </div>
      )}
      {done && (
        <p class="notice" role="status">
          {done}
        </p>
      )}
    </>
  );
}
