import { describe, expect, it } from 'vitest';
import { escapeHtml } from './html';

describe('escapeHtml', () => {
  it('escapes the five characters that end text or a quoted attribute, nothing else', () => {
    expect(escapeHtml(`<script>alert("x" + 'y')</script> & ü`)).toBe(
      '&lt;script&gt;alert(&quot;x&quot; + &#39;y&#39;)&lt;/script&gt; &amp; ü',
    );
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
    expect(escapeHtml('plain /path?a=1')).toBe('plain /path?a=1');
  });
});
