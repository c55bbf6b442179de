import { useEffect } from 'react';
import Card from 'react-bootstrap/Card';
import { useSnapshot } from 'valtio';
import { Link } from 'wouter';
import { CreateForm } from '../components/CreateForm';
import { LookupForm } from '../components/LookupForm';
import { de } from '../i18n/de';
import { auth } from '../state/auth';

const STATS = [
  { value: de.start.statLinks, text: de.start.statLinksText },
  { value: de.start.statCalls, text: de.start.statCallsText },
  { value: de.start.statUsers, text: de.start.statUsersText },
];

export default function StartPage() {
  const a = useSnapshot(auth);
  useEffect(() => {
    document.title = de.app.pageTitle;
  }, []);
  return (
    <>
      <section className="text-center mb-4">
        <h1 className="display-6 fw-bold">{de.app.headline}</h1>
        <p className="lead">{de.app.subtitle}</p>
      </section>
      <div className="row g-4">
        <div className="col-lg-7">
          <CreateForm />
        </div>
        <div className="col-lg-5">
          <LookupForm />
        </div>
      </div>
      <section aria-labelledby="stats-title" className="my-4">
        <h2 id="stats-title" className="h4">
          {de.start.statsTitle}
        </h2>
        <div className="row g-3">
          {STATS.map((s) => (
            <div className="col-md-4" key={s.value}>
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
      <section aria-labelledby="features-title" className="my-4">
        <h2 id="features-title" className="h4">
          {de.start.featuresTitle}
        </h2>
        <ol>
          {de.start.features.map((f) => (
            <li key={f}>{f}</li>
          ))}
        </ol>
      </section>
      {a.status !== 'authenticated' && (
        <section aria-labelledby="pitch-title" className="my-4">
          <h2 id="pitch-title" className="h4">
            {de.start.pitchTitle}
          </h2>
          <ul>
            {de.start.pitch.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
          <Link href="/login" className="btn btn-outline-primary">
            {de.start.pitchButton}
          </Link>
        </section>
      )}
    </>
  );
}
