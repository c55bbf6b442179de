import Alert from 'react-bootstrap/Alert';
import Table from 'react-bootstrap/Table';
import { useSnapshot } from 'valtio';
import { Link, useParams, useSearch } from 'wouter';
import { useTagStatistics } from '../api/queries/tags';
import {
  StatisticsFrame,
  useStatsRange,
  type ListKey,
} from '../components/info/statistics/StatisticsPanel';
import { RoleBadge } from '../components/teams/RoleBadge';
import { useTagsT } from '../i18n/tags-text';
import { FLAGS } from '../lib/flag-rule';
import { shortsHref, tagOfParam } from '../lib/tag-filter';
import { tagStatisticsUrl, type TagShortVisits } from '../lib/tags-api';
import { flags } from '../state/flags';
import { space } from '../state/space';

/**
 * A tag's top lists: the targets are left out (each short numbers its own redirect rules, so
 * 'Regel 1' summed over several shorts says nothing).
 */
const TAG_LISTS: readonly ListKey[] = ['referrers', 'countries', 'devices', 'browsers', 'os'];

/** A short's own statistics (its info page's tab; on an own domain named by ?domain=). */
function shortStatisticsHref(s: TagShortVisits): string {
  const on = s.domain ? `&domain=${encodeURIComponent(s.domain)}` : '';
  return `/s/${encodeURIComponent(s.code)}/info?tab=statistics${on}`;
}

/**
 * /tags/{tag}/statistics (`?team=`: a team's shorts with that tag): the visits of every short with
 * the tag, added up, as the statistics of one short read (range, CSV, chart, top lists, table),
 * and the 'Top-Shorts' among them.
 */
export default function TagStatisticsPage() {
  const { t, tm, locale } = useTagsT();
  const { tag: param = '' } = useParams<{ tag: string }>();
  const tag = tagOfParam(param);
  const team = new URLSearchParams(useSearch()).get('team') || null;
  const sp = useSnapshot(space);
  const teamInfo = team ? (sp.teams?.find((x) => x.id === team) ?? null) : null;
  const enabled = Boolean(useSnapshot(flags).enabled[FLAGS.statistics]);
  const range = useStatsRange();
  const result = useTagStatistics(tag, team, range.query);
  const back = shortsHref(team ? `?team=${encodeURIComponent(team)}` : '', [tag]);

  return (
    <section aria-labelledby="tag-stats-title" data-testid="tag-statistics">
      <h1 id="tag-stats-title" className="mb-1 text-break">
        {t(tm.tags.stats.title, { tag })}
      </h1>
      {teamInfo && (
        <p className="mb-1 text-body-secondary" data-testid="tag-stats-team">
          {t(tm.tags.stats.inTeam, { team: teamInfo.name })} <RoleBadge role={teamInfo.role} />
        </p>
      )}
      <p className="text-body-secondary">
        {team ? tm.tags.stats.introTeam : tm.tags.stats.intro}{' '}
        <Link href={back}>{tm.tags.stats.back}</Link>
      </p>
      {!enabled ? (
        <Alert variant="info" data-testid="tag-stats-off">
          {tm.tags.stats.off}
        </Alert>
      ) : (
        <StatisticsFrame
          range={range}
          csvUrl={tagStatisticsUrl(tag, team, range.query, 'csv')}
          result={result}
          lists={TAG_LISTS}
        >
          {(data) => (
            <section aria-labelledby="tag-stats-top" className="mb-3">
              <h2 id="tag-stats-top" className="h5">
                {tm.tags.stats.top}
              </h2>
              {data.shorts.length === 0 ? (
                <p className="text-body-secondary" data-testid="tag-stats-no-shorts">
                  {tm.tags.stats.noShorts}
                </p>
              ) : (
                <Table size="sm" className="mb-0" data-testid="tag-stats-shorts">
                  <caption className="visually-hidden">{tm.tags.stats.topCaption}</caption>
                  <thead>
                    <tr>
                      <th scope="col">{tm.tags.stats.code}</th>
                      <th scope="col" className="text-end">
                        {tm.tags.stats.visits}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.shorts.map((s) => (
                      <tr key={s.id} data-code={s.code}>
                        <td className="text-break">
                          <Link
                            href={shortStatisticsHref(s)}
                            title={t(tm.tags.stats.ofShort, { code: s.code })}
                          >
                            {s.code}
                          </Link>
                        </td>
                        <td className="text-end">{s.visits.toLocaleString(locale)}</td>
                      </tr>
                    ))}
                  </tbody>
                </Table>
              )}
            </section>
          )}
        </StatisticsFrame>
      )}
    </section>
  );
}
