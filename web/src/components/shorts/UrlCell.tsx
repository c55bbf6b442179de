import { hostAndPath } from '../../lib/table';

/** A url on one line: host and path, cut with an ellipsis where the column ends; the full url on hover. */
export function UrlCell({ url }: { url: string | null }) {
  if (!url) return <span className="text-body-secondary">–</span>;
  return (
    <span className="d-block text-truncate url-cell" title={url}>
      {hostAndPath(url)}
    </span>
  );
}
