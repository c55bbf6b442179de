import Button from 'react-bootstrap/Button';
import Form from 'react-bootstrap/Form';
import { Link } from 'wouter';
import { useTagsT } from '../../i18n/tags-text';
import { tagStatisticsHref } from '../../lib/tag-filter';
import { ChartIcon } from '../shorts/icons';
import { TagInput } from './TagInput';

export interface TagFilterProps {
  /** The tags the list is filtered by (from its address). */
  tags: readonly string[];
  /** A new filter (the page writes it into the address). */
  onChange: (tags: string[]) => void;
  /** The space of the list (its tags are suggested, its statistics linked). */
  team: string | null;
  /** Whether a tag's statistics may be linked (the statistics flag). */
  statistics: boolean;
}

/**
 * Above the own list: the tags it is filtered by, as removable chips in a tag input that suggests
 * the space's tags; beside each chosen tag a link to its statistics.
 */
export function TagFilter({ tags, onChange, team, statistics }: TagFilterProps) {
  const { t, tm } = useTagsT();
  return (
    <div className="mb-3" data-testid="tag-filter">
      <Form.Label htmlFor="shorts-tags" className="mb-1">
        {tm.tags.filter.label}
      </Form.Label>
      <TagInput
        id="shorts-tags"
        value={tags}
        onChange={onChange}
        team={team}
        hint={false}
        commitOnBlur={false}
      />
      {tags.length > 0 && (
        <div
          className="d-flex flex-wrap align-items-center gap-2 mt-2"
          role="group"
          aria-label={tm.tags.filter.active}
          data-testid="tag-filter-active"
        >
          {statistics &&
            tags.map((tag) => (
              <Link
                key={tag}
                href={tagStatisticsHref(tag, team)}
                className="btn btn-sm btn-outline-secondary d-inline-flex align-items-center gap-1"
                title={t(tm.tags.filter.statistics, { tag })}
                aria-label={t(tm.tags.filter.statistics, { tag })}
                data-testid="tag-statistics-link"
              >
                <ChartIcon />
                <span>{tag}</span>
              </Link>
            ))}
          <Button variant="link" size="sm" className="px-1" onClick={() => onChange([])}>
            {tm.tags.filter.clear}
          </Button>
        </div>
      )}
    </div>
  );
}
