import { LookupForm } from '../components/LookupForm';
import { useT } from '../i18n/context';

/** /s without a code: prompt to enter one. */
export default function ShortPromptPage() {
  const { msg } = useT();
  return (
    <section className="mx-auto" style={{ maxWidth: 640 }}>
      <h1>{msg.info.title}</h1>
      <p>{msg.lookup.prompt}</p>
      <LookupForm />
    </section>
  );
}
