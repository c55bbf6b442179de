// The web client's unit tests (jsdom) live in vite.config.mts's `test` block.
export { default } from './vite.config.mts';
