/**
 * What only a logged-in user's short form shows, through one lazy import (ShortFields): the rules
 * editor and the UTM section (one chunk), and the tags' input (a chunk of its own: the own list
 * uses it too). One import for all keeps the entry small (the first visit's budget).
 */
export { default as RulesEditor } from './rules/RulesEditor';
export { default as UtmSlot } from './utm/UtmSection';
export { TagInput } from './tags/TagInput';
