import type { FocusEvent, FormEvent } from 'react';
import { flushSync } from 'react-dom';

/**
 * A URL typed without a scheme (`heise.de`, `www.example.org/pfad`) as the browser and the server
 * take it: with `https://` in front. Text that has a scheme (`http://…`, `mailto:`), is empty, has
 * spaces, or whose host has no dot (and is not localhost) is left as it is, for the field's own
 * check to judge.
 */
export function withScheme(text: string): string {
  const v = text.trim();
  if (!v || /\s/.test(v)) return text;
  if (/^[a-z][a-z\d+.-]*:\/\//i.test(v)) return text;
  if (v.startsWith('//')) return `https:${v}`;
  const scheme = /^([a-z][a-z\d+.-]*):(.*)$/i.exec(v);
  // `mailto:…`, `javascript:…` keep their scheme; `example.com:8080/…` and `localhost:3000` are hosts.
  if (scheme && !scheme[1].includes('.') && !/^\d+(?:[/?#]|$)/.test(scheme[2])) return text;
  const candidate = `https://${v}`;
  try {
    const host = new URL(candidate).hostname;
    if (!host.includes('.') && host !== 'localhost') return text;
  } catch {
    return text;
  }
  return candidate;
}

/**
 * A URL typed without a scheme (`heise.de`) gets `https://` (withScheme) when the field is left,
 * and when the form is sent from inside it: the browser's own "not a URL" is turned into a second
 * submit with the completed value.
 */
export function schemeFix(set: (text: string) => void): {
  onBlur: (e: FocusEvent<HTMLInputElement>) => void;
  onInvalid: (e: FormEvent<HTMLInputElement>) => void;
} {
  return {
    onBlur: (e: FocusEvent<HTMLInputElement>) => {
      const v = withScheme(e.currentTarget.value);
      if (v !== e.currentTarget.value) set(v);
    },
    onInvalid: (e: FormEvent<HTMLInputElement>) => {
      const input = e.currentTarget;
      const v = withScheme(input.value);
      if (v === input.value) return;
      e.preventDefault();
      flushSync(() => set(v));
      // After the browser's own validation has ended (a submit inside it is ignored).
      const form = input.form;
      setTimeout(() => form?.requestSubmit());
    },
  };
}
