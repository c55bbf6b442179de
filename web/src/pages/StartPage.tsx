import { lazy, Suspense, useEffect, useState } from 'react';
import Card from 'react-bootstrap/Card';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { api, unwrap } from '../api/client';
import { CreateForm } from '../components/CreateForm';
import { LookupForm } from '../components/LookupForm';
import { figureCards, type Figures } from '../lib/figures';
import { runtimeConfig } from '../runtime-config';
import { auth } from '../state/auth';
import { useT } from '../i18n/context';

/** The user's latest shorts: only logged-in users see them, so a chunk of its own (the budget). */
const LatestShorts = lazy(() => import('../components/home/LatestShorts'));

/**
 * 'URL-Shorter in Zahlen' by HOME_FIGURES: this instance's counts (live, the default: GET
 * /api/figures, called directly, react-query is not loaded here; a count under 10 shows no card,
 * so a new instance shows none rather than zeros), the specification's fixed cards (static), or
 * nothing (off, or live figures that cannot be read). Live cards appear once the counts are there.
 */
function FigureCards() {
  const { msg } = useT();
  const mode = runtimeConfig.homeFigures;
  const [live, setLive] = useState<Figures | null | 'failed'>(null);
  useEffect(() => {
    if (mode !== 'live') return;
    let on = true;
    unwrap(api.GET('/api/figures'))
      .then((f) => on && setLive(f))
      .catch(() => on && setLive('failed'));
    return () => {
      on = false;
    };
  }, [mode]);
  if (mode === 'off' || live === 'failed') return null;
  if (mode === 'live' && live === null) return null;
  const cards = figureCards(mode === 'live' ? live : null);
  if (cards.length === 0) return null;
  return (
    <section aria-labelledby="stats-title" className="my-4">
      <h2 id="stats-title" className="h4">
        {msg.start.statsTitle}
      </h2>
      <div className="row g-3" data-testid="figures">
        {cards.map((s) => (
          <div className="col-md-4" key={s.text}>
            <Card className="h-100 text-center">
              <Card.Body>
                <p className="h3 fw-bold mb-1">{s.value}</p>
                <p className="mb-0">{s.text}</p>
              </Card.Body>
            </Card>
          </div>
        ))}
      </div>
    </section>
  );
}

export default function StartPage() {
  const { msg } = useT();
  const a = useSnapshot(auth);
  return (
    <>
      <section className="text-center mb-4">
        <h1 className="display-6 fw-bold">{msg.app.headline}</h1>
        <p className="lead">{msg.app.subtitle}</p>
      </section>
      <div className="row g-4">
        <div className="col-lg-7">
          <CreateForm />
        </div>
        <div className="col-lg-5">
          <LookupForm />
        </div>
      </div>
      {a.status === 'authenticated' && (
        <Suspense fallback={null}>
          <LatestShorts />
        </Suspense>
      )}
      <FigureCards />
      <section aria-labelledby="features-title" className="my-4">
        <h2 id="features-title" className="h4">
          {msg.start.featuresTitle}
        </h2>
        <ol>
          {msg.start.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ol>
      </section>
      {a.status !== 'authenticated' && (
        <section aria-labelledby="pitch-title" className="my-4">
          <h2 id="pitch-title" className="h4">
            {msg.start.pitchTitle}
          </h2>
          <ul>
            {msg.start.pitch.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
          <Link href="/login" className="btn btn-outline-primary">
            {msg.start.pitchButton}
          </Link>
        </section>
      )}
    </>
  );
}
