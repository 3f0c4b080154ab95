// The city's challenges: play each of a challenge's quizzes (its series), see each one's score and review its answers;
// once every quiz is played, the challenge's score (over all its questions) is sent, and its badge won at the pass
// mark. Each quiz's last result is kept on the device; the server keeps the challenge's best score.
import { useEffect, useRef, useState } from 'preact/hooks';
import { get, messageOf, post } from '../api.ts';
import { Link } from '../../shared/router.tsx';
import { currentCityId, deviceId, read, write } from '../store.ts';
import { shortDate } from '../text.ts';
import type { Badge, Challenge, City, Completion, Progress, WasteType } from '../types.ts';
import { Loading, NeedCity, OfflineNotice, Problem, Swatch, Title, useResource } from '../ui.tsx';

/** A quiz's last result on this device. */
interface SerieResult {
  correct: number;
  total: number;
}

const resultsKey = (challengeId: string) => `quiz.${challengeId}`;
const serieResults = (challengeId: string) => read<Record<string, SerieResult>>(resultsKey(challengeId)) ?? {};
const percent = (r: SerieResult) => (r.total === 0 ? 0 : Math.round((100 * r.correct) / r.total));

/** The challenge's score once every one of its quizzes is played: the share of right answers over all of them; else null. */
function challengeScore(challenge: Challenge, results: Record<string, SerieResult>): number | null {
  const played = challenge.series.map((s) => results[s.id]);
  if (played.some((r) => !r)) return null;
  return percent(played.reduce((sum, r) => ({ correct: sum.correct + r!.correct, total: sum.total + r!.total }), { correct: 0, total: 0 }));
}

const quizzes = (n: number) => `${n}${NBSP}quiz`;

async function loadChallenges(cityId: string) {
  const [challenges, progress] = await Promise.all([
    get<Challenge[]>(`/public/challenges/${cityId}`, { fresh: true }),
    get<Progress[]>(`/public/challenges/progress/${deviceId()}`, { fresh: true }),
  ]);
  return { challenges, progress };
}

export function Challenges() {
  const cityId = currentCityId();
  const data = useResource(cityId && `challenges:${cityId}`, () => loadChallenges(cityId!));
  return (
    <section>
      <Title text="Défis du tri">Défis du tri</Title>
      <OfflineNotice what="voici les défis lus lors de votre dernière visite. Un score ne peut être enregistré qu'avec une connexion." />
      {!cityId ? (
        <NeedCity what="les défis de votre commune" />
      ) : data.loading ? (
        <Loading what="des défis" />
      ) : data.error != null || !data.data ? (
        <Problem error={data.error} retry={data.reload} />
      ) : (
        <ChallengeList challenges={data.data.challenges} progress={data.data.progress} />
      )}
    </section>
  );
}

function ChallengeList({ challenges, progress }: { challenges: Challenge[]; progress: Progress[] }) {
  const done = new Map(progress.map((p) => [p.challengeId, p]));
  const badges = progress.filter((p) => p.badge);
  return (
    <>
      <p class="lead">Testez vos connaissances du tri et gagnez des badges.</p>
      <h2>Mes badges</h2>
      {badges.length === 0 ? (
        <p>Pas encore de badge : terminez un quiz pour gagner le premier.</p>
      ) : (
        <ul class="badges" aria-label="Mes badges">
          {badges.map((p) => (
            <li key={p.challengeId}>
              <BadgeView badge={p.badge!} />
              <span class="muted">
                {p.challengeName} · {Math.round(p.score)} % · {shortDate(p.completedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p class="progress-summary">
        {done.size} défi{done.size > 1 ? 's' : ''} terminé{done.size > 1 ? 's' : ''} sur {challenges.length}
      </p>
      <progress max={Math.max(challenges.length, 1)} value={Math.min(done.size, challenges.length)} aria-label="Progression dans les défis" />

      <h2>Les défis</h2>
      {challenges.length === 0 && <p>Aucun défi en cours dans votre commune.</p>}
      <ul class="challenges">
        {challenges.map((c) => {
          const locked = c.requiredChallengeId !== null && !done.has(c.requiredChallengeId);
          const result = done.get(c.id);
          const played = serieResults(c.id);
          const playedCount = c.series.filter((s) => played[s.id]).length;
          return (
            <li key={c.id} class="card">
              <h3>{c.name}</h3>
              {c.description && <p>{c.description}</p>}
              {result &&
                (result.badge || !c.badge || result.score >= c.passingScore ? (
                  <p class="success">Terminé avec {Math.round(result.score)}{NBSP}%.</p>
                ) : (
                  <p>
                    Meilleur score{NBSP}: {Math.round(result.score)}{NBSP}%. Il faut {c.passingScore}{NBSP}% pour gagner le badge «{NBSP}{c.badge.name}{NBSP}»{NBSP}: rejouez{NBSP}!
                  </p>
                ))}
              {!result && playedCount > 0 && (
                <p>
                  {playedCount} {playedCount > 1 ? 'quiz joués' : 'quiz joué'} sur {c.series.length}{NBSP}: jouez {c.series.length - playedCount > 1 ? 'les autres' : 'le dernier'} pour terminer le défi.
                </p>
              )}
              {locked ? (
                <p class="muted">Terminez d'abord le défi « {c.requiredChallenge?.name} » pour débloquer celui-ci.</p>
              ) : (
                <ul class="series">
                  {c.series.map((s) => (
                    <li key={s.id}>
                      <Link class="button" href={`/defis/${c.id}/${s.id}`}>
                        {played[s.id] ? 'Rejouer' : 'Jouer'} : {s.name}
                        <span class="muted"> ({s.quizQuestions.length} questions{played[s.id] ? `, joué${NBSP}: ${percent(played[s.id])}${NBSP}%` : ''})</span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ul>
    </>
  );
}

function BadgeView({ badge }: { badge: Badge }) {
  return (
    <span class="badge">
      <span class="badge-medal" aria-hidden="true">
        ★
      </span>
      <span>
        <strong>{badge.name}</strong>
        {badge.description && <span class="muted"> – {badge.description}</span>}
      </span>
    </span>
  );
}

const NBSP = '\u00a0';

async function loadQuiz(cityId: string, challengeId: string) {
  const [challenges, city] = await Promise.all([get<Challenge[]>(`/public/challenges/${cityId}`), get<City>(`/public/cities/${cityId}`)]);
  return { challenge: challenges.find((c) => c.id === challengeId) ?? null, wasteTypes: city.wasteTypes };
}

export function Quiz({ challengeId, serieId }: { challengeId: string; serieId: string }) {
  const cityId = currentCityId();
  const data = useResource(cityId && `quiz:${challengeId}`, () => loadQuiz(cityId!, challengeId));
  if (!cityId) return <NeedCity what="les défis" />;
  if (data.loading) return <Loading what="du quiz" />;
  if (data.error != null || !data.data) return <Problem error={data.error} retry={data.reload} />;
  const serie = data.data.challenge?.series.find((s) => s.id === serieId);
  if (!data.data.challenge || !serie) {
    return (
      <section>
        <Title text="Quiz introuvable">Quiz introuvable</Title>
        <p>Ce quiz n'est plus proposé. <Link href="/defis">Voir les défis en cours</Link></p>
      </section>
    );
  }
  return <QuizPlay key={serie.id} challenge={data.data.challenge} serieId={serie.id} wasteTypes={data.data.wasteTypes} />;
}

interface QuizResult {
  /** This quiz's score. */
  score: number;
  /** The quizzes of the challenge still to play; none: the challenge's score was sent. */
  remaining: Challenge['series'];
  /** The challenge's score over all its quizzes, once all are played. */
  overall: number | null;
  completion?: Completion;
  error?: unknown;
}

function QuizPlay(props: { challenge: Challenge; serieId: string; wasteTypes: WasteType[] }) {
  const { challenge, serieId, wasteTypes } = props;
  const serie = challenge.series.find((s) => s.id === serieId)!;
  const { quizQuestions: questions, name: serieName } = serie;
  const [index, setIndex] = useState(0);
  const [correct, setCorrect] = useState(0);
  const [chosen, setChosen] = useState<string | null>(null);
  // What was answered to each question, for « Revoir mes réponses ».
  const [answers, setAnswers] = useState<string[]>([]);
  const [result, setResult] = useState<QuizResult | null>(null);
  const question = questions[index];
  const feedback = useRef<HTMLDivElement>(null);
  // The answer's feedback and « Question suivante » come into view above the phone's tab bar (scroll-margin).
  useEffect(() => {
    if (chosen) feedback.current?.scrollIntoView({ block: 'nearest' });
  }, [chosen]);

  const answer = (wasteTypeId: string) => {
    if (chosen) return;
    setChosen(wasteTypeId);
    setAnswers((list) => [...list, wasteTypeId]);
    if (wasteTypeId === question.correctWasteTypeId) setCorrect((n) => n + 1);
  };
  const replay = () => {
    setIndex(0);
    setCorrect(0);
    setChosen(null);
    setAnswers([]);
    setResult(null);
  };
  const next = async () => {
    if (index + 1 < questions.length) {
      setIndex(index + 1);
      setChosen(null);
      return;
    }
    const mine: SerieResult = { correct, total: questions.length };
    const results = { ...serieResults(challenge.id), [serieId]: mine };
    write(resultsKey(challenge.id), results);
    const remaining = challenge.series.filter((s) => !results[s.id]);
    const overall = challengeScore(challenge, results);
    const score = percent(mine);
    // The challenge is done, and its score sent, only once every quiz is played.
    if (overall === null) {
      setResult({ score, remaining, overall });
      return;
    }
    try {
      const completion = await post<Completion>('/public/challenges/complete', { deviceId: deviceId(), challengeId: challenge.id, score: overall });
      setResult({ score, remaining, overall, completion });
    } catch (error) {
      setResult({ score, remaining, overall, error });
    }
  };

  if (result) {
    return (
      <section>
        <Title text="Quiz terminé">Quiz terminé</Title>
        <p class="score">
          Votre score : <strong>{result.score} %</strong> ({correct} bonne{correct > 1 ? 's' : ''} réponse{correct > 1 ? 's' : ''} sur {questions.length})
        </p>
        {result.remaining.length > 0 ? (
          <div class="card">
            <p>
              Pour terminer le défi «{NBSP}{challenge.name}{NBSP}», il reste {quizzes(result.remaining.length)} à jouer{NBSP}:
            </p>
            <ul class="series">
              {result.remaining.map((s) => (
                <li key={s.id}>
                  <Link class="button" href={`/defis/${challenge.id}/${s.id}`}>
                    Jouer : {s.name}
                  </Link>
                </li>
              ))}
            </ul>
          </div>
        ) : (
          challenge.series.length > 1 && (
            <p class="score">
              Défi terminé{NBSP}: <strong>{result.overall}{NBSP}%</strong> de bonnes réponses sur l’ensemble de ses {quizzes(challenge.series.length)}.
            </p>
          )
        )}
        {result.error != null && <p class="problem" role="alert">Votre score n'a pas pu être enregistré. {messageOf(result.error)}</p>}
        {result.completion && !result.completion.challenge.badge && challenge.badge && (
          <p class="card">
            Il faut au moins {challenge.passingScore}{NBSP}% de bonnes réponses pour gagner le badge «{NBSP}{challenge.badge.name}{NBSP}». Rejouez pour
            tenter votre chance{NBSP}!
          </p>
        )}
        {result.completion?.challenge.badge && (
          <div class="card earned" role="status">
            <p>Bravo, vous gagnez le badge :</p>
            <BadgeView badge={result.completion.challenge.badge} />
          </div>
        )}
        <details class="review">
          <summary>Revoir mes réponses</summary>
          <ol>
            {questions.map((q, i) => {
              const given = wasteTypes.find((w) => w.id === answers[i])?.name ?? '—';
              const expected = wasteTypes.find((w) => w.id === q.correctWasteTypeId)?.name ?? '—';
              const right = answers[i] === q.correctWasteTypeId;
              return (
                <li key={i}>
                  <p>{q.question}</p>
                  <p class={right ? 'success' : 'failure'}>
                    <span aria-hidden="true">{right ? '✓' : '✗'}</span> Votre réponse{NBSP}: {given}
                    {!right && (
                      <>
                        {' '}
                        · bonne réponse{NBSP}: {expected}
                      </>
                    )}
                  </p>
                </li>
              );
            })}
          </ol>
        </details>
        <p class="actions">
          <button type="button" class="button secondary" onClick={replay}>
            Rejouer ce quiz
          </button>
          <Link class="button" href="/defis">
            Voir mes badges et défis
          </Link>
        </p>
      </section>
    );
  }

  const right = wasteTypes.find((w) => w.id === question.correctWasteTypeId);
  return (
    <section>
      <Title text={`${challenge.name} – ${serieName}`}>{challenge.name}</Title>
      <p class="muted">
        {serieName} · question {index + 1} sur {questions.length}
      </p>
      <div class="card quiz">
        <h2 id="question">{question.question}</h2>
        <div role="group" aria-labelledby="question">
        <ul class={chosen ? 'options answered' : 'options'}>
          {wasteTypes.map((w) => {
            const state = chosen === null ? '' : w.id === question.correctWasteTypeId ? 'right' : w.id === chosen ? 'wrong' : '';
            return (
              <li key={w.id}>
                <button type="button" class={`option ${state}`} onClick={() => answer(w.id)} aria-pressed={chosen === w.id} disabled={chosen !== null && chosen !== w.id}>
                  <Swatch color={w.color} /> {w.name}
                  {state === 'right' && (
                    <span class="verdict-mark">
                      <span aria-hidden="true">✓</span> Bonne réponse
                    </span>
                  )}
                  {state === 'wrong' && (
                    <span class="verdict-mark">
                      <span aria-hidden="true">✗</span> Votre réponse
                    </span>
                  )}
                </button>
              </li>
            );
          })}
        </ul>
        </div>
        {chosen && (
          <div role="status" ref={feedback} class={`feedback ${chosen === question.correctWasteTypeId ? 'success' : 'failure'}`}>
            <p>
              <span class="feedback-icon" aria-hidden="true">
                {chosen === question.correctWasteTypeId ? '✓' : '✗'}
              </span>{' '}
              {chosen === question.correctWasteTypeId
                ? `Bonne réponse${NBSP}!`
                : `Mauvaise réponse${NBSP}: ${question.material.toLowerCase()} va dans «${NBSP}${right?.name}${NBSP}».`}
            </p>
            <button type="button" class="button" onClick={next}>
              {index + 1 < questions.length ? 'Question suivante' : 'Voir mon score'}
            </button>
          </div>
        )}
      </div>
    </section>
  );
}
