import { cleanTag, isValidTag, MAX_TAGS, TAG_MAX_LENGTH, tagKey } from '@shared/tags';
import { useRef, useState, type KeyboardEvent } from 'react';
import { pluralForm } from '../../i18n/plural';
import { useTagsT, type TagMessages } from '../../i18n/tags-text';
import { t } from '../../i18n/text';
import { tagSuggestions, type TagCount } from '../../lib/tags-api';
import { useResolved } from '../useResolved';

/** At most this many suggestions are listed. */
export const MAX_SUGGESTIONS = 8;

export interface TagInputProps {
  /** The tags chosen (a short's, a filter's, a bulk edit's). */
  value: readonly string[];
  onChange: (tags: string[]) => void;
  /** The space whose tags are suggested: a team's id; null or absent: the caller's own. */
  team?: string | null;
  /** The text input's id: a `<label htmlFor={id}>` names the input. */
  id: string;
  /** The form's error for this field (the server's): the input shows as invalid. */
  invalid?: boolean;
  /** Elements that describe the input besides its own hint and message (the form's error). */
  describedBy?: string;
  /** The usage hint below the input (Enter, comma, Backspace); off where space is short. */
  hint?: boolean;
  /** A name for the input where no label names it. */
  ariaLabel?: string;
  /**
   * Whether leaving the input adds what is typed (a form: nothing typed is lost when it is sent).
   * Off for a filter, where a half-typed word would filter the list.
   */
  commitOnBlur?: boolean;
}

/** Why a typed tag was not added. */
export type TagProblem = { kind: 'invalid'; tag: string } | { kind: 'tooMany' };

/**
 * Adds typed tags to a list by the shared rules (@shared/tags): each cleaned; a tag whose key the
 * list holds already is merged into it (the first spelling stays); an invalid tag, or one beyond
 * MAX_TAGS, stops there. Answers the new list, the problem and the typed parts not taken (from the
 * one that stopped on).
 */
export function addTypedTags(
  current: readonly string[],
  typed: readonly string[],
): { tags: string[]; problem?: TagProblem; rest: string[] } {
  const tags = [...current];
  const keys = new Set(tags.map(tagKey));
  for (let i = 0; i < typed.length; i++) {
    const tag = cleanTag(typed[i]);
    if (tag === '') continue;
    const rest = typed.slice(i);
    if (!isValidTag(tag)) return { tags, problem: { kind: 'invalid', tag }, rest };
    if (keys.has(tag.toLowerCase())) continue;
    if (tags.length >= MAX_TAGS) return { tags, problem: { kind: 'tooMany' }, rest };
    keys.add(tag.toLowerCase());
    tags.push(tag);
  }
  return { tags, rest: [] };
}

/**
 * The suggestions for what is typed: the space's tags not chosen yet, those that start with the
 * text first, then those that contain it; in the server's order (most used first) otherwise.
 */
export function matchSuggestions(
  all: readonly TagCount[],
  text: string,
  chosen: readonly string[],
  limit = MAX_SUGGESTIONS,
): TagCount[] {
  const key = tagKey(text);
  const taken = new Set(chosen.map(tagKey));
  const free = all.filter((s) => !taken.has(tagKey(s.tag)));
  if (!key) return free.slice(0, limit);
  const starts = free.filter((s) => tagKey(s.tag).startsWith(key));
  const contains = free.filter(
    (s) => !tagKey(s.tag).startsWith(key) && tagKey(s.tag).includes(key),
  );
  return [...starts, ...contains].slice(0, limit);
}

function problemText(tm: TagMessages, problem: TagProblem): string {
  return problem.kind === 'invalid'
    ? t(tm.tags.input.invalid, { tag: problem.tag, max: TAG_MAX_LENGTH })
    : t(tm.tags.input.tooMany, { max: MAX_TAGS });
}

/**
 * Tags as chips with a text input: typing and Enter or a comma adds a tag (a pasted 'a, b' adds
 * both), Backspace in the empty input removes the last one, × removes any. While typing, the
 * space's tags (GET /api/tags) are suggested in a list the arrow keys walk (ARIA combobox with a
 * listbox). The shared rules are checked as typed: an invalid tag or an eleventh one is not added
 * and the input says why. Leaving the input adds what is typed (unless `commitOnBlur` is off).
 */
export function TagInput({
  value,
  onChange,
  team = null,
  id,
  invalid = false,
  describedBy,
  hint = true,
  ariaLabel,
  commitOnBlur = true,
}: TagInputProps) {
  const { tm } = useTagsT();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<TagProblem | null>(null);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // The space's tags, asked once the input is first used (not for every form that shows it).
  const [wanted, setWanted] = useState(false);
  const all = useResolved(() => (wanted ? tagSuggestions(team) : undefined), [wanted, team], []);
  const options = open ? matchSuggestions(all, text, value) : [];
  const listId = `${id}-suggestions`;
  const optionId = (i: number) => `${id}-suggestion-${i}`;
  const messageId = `${id}-message`;
  const hintId = `${id}-hint`;

  /** Adds typed parts; keeps in the input what could not be added. */
  function commit(parts: readonly string[], keep = '') {
    const result = addTypedTags(value, parts);
    if (result.tags.length !== value.length) onChange(result.tags);
    setProblem(result.problem ?? null);
    setText(result.rest.length > 0 ? [...result.rest, keep].filter(Boolean).join(', ') : keep);
    setActive(-1);
  }

  function type(next: string) {
    setWanted(true);
    setOpen(true);
    setActive(-1);
    if (next.includes(',')) {
      const parts = next.split(',');
      const last = parts.pop() ?? '';
      commit(parts, last.trimStart());
    } else {
      setText(next);
      if (problem) setProblem(null);
    }
  }

  function remove(tag: string) {
    onChange(value.filter((x) => x !== tag));
    setProblem(null);
    input.current?.focus();
  }

  function onKeyDown(e: KeyboardEvent<HTMLInputElement>) {
    switch (e.key) {
      case 'Enter':
        // A tag added closes the suggestions (they would cover what follows the input, such as
        // a dialog's buttons); typing or the arrow key opens them again.
        if (active >= 0 && options[active]) {
          e.preventDefault();
          commit([options[active].tag]);
          setOpen(false);
        } else if (text.trim()) {
          e.preventDefault(); // adds the tag, does not submit the form
          commit([text]);
          setOpen(false);
        }
        return;
      case ',':
        e.preventDefault();
        commit([text]);
        setOpen(false);
        return;
      case 'Backspace':
        if (text === '' && value.length > 0) {
          e.preventDefault();
          remove(value[value.length - 1]);
        }
        return;
      case 'ArrowDown':
        e.preventDefault();
        setWanted(true);
        if (!open) setOpen(true);
        else if (options.length > 0) setActive((a) => Math.min(a + 1, options.length - 1));
        return;
      case 'ArrowUp':
        if (!open) return;
        e.preventDefault();
        setActive((a) => Math.max(a - 1, -1));
        return;
      case 'Escape':
        if (open && options.length > 0) {
          e.stopPropagation(); // closes the list, not the dialog around it
          setOpen(false);
          setActive(-1);
        }
        return;
      default:
        return;
    }
  }

  const message = problem ? problemText(tm, problem) : null;
  const described =
    [describedBy, message ? messageId : null, hint ? hintId : null].filter(Boolean).join(' ') ||
    undefined;
  const expanded = options.length > 0;

  return (
    <div className="tag-input-wrap position-relative" data-testid="tag-input">
      {/* A click anywhere in the box goes to the text input (the chips' buttons keep theirs). */}
      <div
        className={`form-control tag-input d-flex flex-wrap align-items-center gap-1${
          invalid || message ? ' is-invalid' : ''
        }`}
        onClick={(e) => {
          if (e.target === e.currentTarget) input.current?.focus();
        }}
      >
        {value.length > 0 && (
          <ul
            className="list-unstyled d-flex flex-wrap gap-1 m-0"
            aria-label={tm.tags.input.chosen}
          >
            {value.map((tag) => (
              <li
                key={tag}
                className="badge rounded-pill text-bg-secondary tag-chip"
                data-tag={tag}
              >
                <span>{tag}</span>
                <button
                  type="button"
                  className="btn-close btn-close-white tag-chip-remove"
                  aria-label={t(tm.tags.input.remove, { tag })}
                  onClick={() => remove(tag)}
                />
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={id}
          type="text"
          className="tag-input-text"
          role="combobox"
          aria-label={ariaLabel}
          aria-autocomplete="list"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
          aria-invalid={invalid || message ? true : undefined}
          aria-describedby={described}
          autoComplete="off"
          enterKeyHint="enter"
          placeholder={value.length === 0 ? tm.tags.input.placeholder : undefined}
          value={text}
          maxLength={TAG_MAX_LENGTH * MAX_TAGS}
          onChange={(e) => type(e.target.value)}
          onKeyDown={onKeyDown}
          onFocus={() => setWanted(true)}
          onBlur={() => {
            setOpen(false);
            setActive(-1);
            if (commitOnBlur && text.trim()) commit([text]);
          }}
        />
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label={tm.tags.input.suggestions}
        className={`dropdown-menu w-100${expanded ? ' show' : ''}`}
        style={{ top: '100%', left: 0 }}
        hidden={!expanded}
      >
        {options.map((o, i) => (
          <li
            key={o.tag}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            className={`dropdown-item d-flex justify-content-between gap-3${i === active ? ' active' : ''}`}
            // Chosen with the mouse: the input keeps its focus (no blur that adds the typed text).
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => commit([o.tag])}
          >
            <span className="text-break">{o.tag}</span>
            <small className={i === active ? undefined : 'text-body-secondary'}>
              {t(pluralForm(tm.tags.input.used, o.count), { n: o.count })}
            </small>
          </li>
        ))}
      </ul>
      <div
        id={messageId}
        className={message ? 'invalid-feedback d-block' : undefined}
        aria-live="polite"
      >
        {message}
      </div>
      {hint && (
        <div id={hintId} className="form-text mt-0">
          {t(tm.tags.input.hint, { max: MAX_TAGS })}
        </div>
      )}
    </div>
  );
}
