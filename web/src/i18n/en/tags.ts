import type { Catalogue } from '../text';
import type { tags as de } from '../de/tags';

/**
 * Tags, the own list's tag filter, the bulk edits of the selected shorts and the statistics of a
 * tag (CONTRACT "Tags and bulk edits"): the same keys and placeholders as the German area.
 */
export const tags: Catalogue<typeof de> = {
  tags: {
    input: {
      placeholder: 'Type a tag …',
      hint: 'Up to {max} tags. Enter or a comma adds a tag, Backspace removes the last one.',
      chosen: 'Chosen tags',
      remove: 'Remove tag {tag}',
      suggestions: 'Suggestions',
      used: { one: '{n} short', other: '{n} shorts' },
      invalid:
        '“{tag}” is not a valid tag: 1 to {max} characters of letters, digits, space, - _ and .',
      tooMany: 'At most {max} tags.',
    },
    chips: {
      label: 'Tags of {code}',
      filterBy: 'Show only shorts tagged {tag}',
    },
    filter: {
      label: 'Filter by tags',
      active: 'Filtered by tags',
      clear: 'Remove all tag filters',
      statistics: 'Statistics of the tag {tag}',
      empty: {
        one: 'No short carries the tag {tags}.',
        other: 'No short carries all the tags {tags}.',
      },
    },
    bulk: {
      label: 'Edit the selected shorts',
      selected: { one: '{n} short selected', other: '{n} shorts selected' },
      affects: {
        one: 'Applies to the selected short.',
        other: 'Applies to the {n} selected shorts.',
      },
      addTags: 'Add tags',
      removeTags: 'Remove tags',
      expireAt: 'Set expiry',
      maxUses: 'Set max. uses',
      team: 'Move to a team',
      clear: 'Clear selection',
      tags: 'Tags',
      expiryHint: 'Leave empty: the shorts never expire.',
      maxUsesHint: 'Leave empty: unlimited uses.',
      target: 'Target',
      apply: 'Apply',
      cancel: 'Cancel',
      changed: { one: '{n} short changed.', other: '{n} shorts changed.' },
      failed: 'The shorts could not be changed.',
      refused: {
        one: 'Nothing was changed: you may not change {n} short ({codes}).',
        other: 'Nothing was changed: you may not change {n} shorts ({codes}).',
      },
      tooManyTags: 'Nothing was changed: a short would then have more than {max} tags.',
      tagInvalid: 'Nothing was changed: a tag is not valid.',
      confirmTitle: { one: 'Delete {n} short?', other: 'Delete {n} shorts?' },
      confirmText: {
        one: 'The selected short is deleted for good, with its statistics.',
        other: 'The {n} selected shorts are deleted for good, with their statistics.',
      },
    },
    stats: {
      title: 'Statistics of the tag {tag}',
      inTeam: 'Team {team}',
      intro: 'The visits of all your shorts with this tag, added up.',
      introTeam: "The visits of all the team's shorts with this tag, added up.",
      back: 'To the shorts with this tag',
      top: 'Top shorts',
      topCaption: 'The shorts with this tag and the most visits in the range',
      code: 'Code',
      visits: 'Visits',
      ofShort: 'Statistics of {code}',
      noShorts: 'No visits in this range.',
      off: 'Statistics are switched off on this server.',
    },
  },
};
