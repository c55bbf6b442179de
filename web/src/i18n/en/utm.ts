import type { Catalogue } from '../text';
import type { utm as de } from '../de/utm';

/** UTM parameters and templates: the same keys and placeholders as the German area. */
export const utm: Catalogue<typeof de> = {
  utm: {
    section: 'UTM parameters',
    set: { one: '{n} set', other: '{n} set' },
    intro:
      'These fields live in the target URL: changing them changes the URL, changing the URL changes them.',
    needUrl: 'First enter a full target URL starting with http:// or https://.',
    template: 'Apply a template',
    chooseTemplate: 'Choose a template …',
    noTemplates: 'No templates in this space yet.',
    applied: 'Template “{name}” applied.',
    saveName: 'Template name',
    save: 'Save as template',
    saved: 'Template “{name}” saved.',
    saveFailed: 'The template could not be saved.',
    loadFailed: 'The templates could not be loaded.',
    manage: {
      toggle: 'Manage templates',
      title: 'UTM templates of this space',
      delete: 'Delete',
      deleteLabel: 'Delete template {name}',
      confirm: 'Really delete the template “{name}”?',
      cancel: 'Cancel',
      deleted: 'Template deleted.',
      gone: 'This template does not exist (anymore).',
      deleteFailed: 'The template could not be deleted.',
    },
  },
};
