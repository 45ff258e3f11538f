export * from './inline.dispatch';
export * from './refusal';
