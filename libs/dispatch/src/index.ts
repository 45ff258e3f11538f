export * from './inline.dispatch';
