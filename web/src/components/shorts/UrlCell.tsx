import { useState } from 'react';
import { de } from '../../i18n/de';
import { cutUrl } from '../../lib/table';

/** Urls longer than 100 characters are cut with an ellipsis; a click shows the full text (and back). */
export function UrlCell({ url }: { url: string | null }) {
  const [full, setFull] = useState(false);
  if (!url) return <span className="text-body-secondary">–</span>;
  const { text, cut } = cutUrl(url);
  if (!cut) return <span className="text-break">{url}</span>;
  return (
    <button
      type="button"
      className="btn btn-link p-0 text-start text-break text-decoration-none text-reset"
      aria-expanded={full}
      title={full ? de.shorts.showShortUrl : de.shorts.showFullUrl}
      onClick={() => setFull((f) => !f)}
    >
      {full ? url : text}
    </button>
  );
}
