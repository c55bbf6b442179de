// punycode.js (MIT) ships no types; the client only decodes hosts for display.
declare module 'punycode/punycode.es6.js' {
  export function toUnicode(input: string): string;
  export function toASCII(input: string): string;
}
