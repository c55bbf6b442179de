import { showPageSize } from '../../lib/table';
import { PageSizeSelect } from '../table/PageSizeSelect';
import { Pager } from '../table/Pager';
import { useT } from '../../i18n/context';
import { pluralForm } from '../../i18n/plural';

/** Below the own-shorts table: the total, the page size (from 10 entries) and the page bar. */
export function ShortsPaging({
  total,
  size,
  onSize,
  page,
  pageCount,
  onPage,
}: {
  total: number;
  size: number;
  onSize: (size: number) => void;
  /** From 0, as the server counts. */
  page: number;
  pageCount: number;
  onPage: (page: number) => void;
}) {
  const { msg, t } = useT();
  return (
    <div className="d-flex flex-wrap gap-3 align-items-start justify-content-between">
      <div className="d-flex gap-3 align-items-center">
        <span className="text-body-secondary" data-testid="shorts-total">
          {t(pluralForm(msg.shorts.total, total), { count: total })}
        </span>
        {showPageSize(total) && (
          <PageSizeSelect id="shorts-page-size" size={size} onSize={onSize} />
        )}
      </div>
      <Pager page={page + 1} pageCount={pageCount} onPage={(p) => onPage(p - 1)} />
    </div>
  );
}
