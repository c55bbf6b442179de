import { LookupForm } from '../components/LookupForm';
import { de } from '../i18n/de';

/** /s without a code: prompt to enter one. */
export default function ShortPromptPage() {
  return (
    <section className="mx-auto" style={{ maxWidth: 640 }}>
      <h1>{de.info.title}</h1>
      <p>{de.lookup.prompt}</p>
      <LookupForm />
    </section>
  );
}
