export * from './broker-config';
export * from './grading-message';
export * from './inline.dispatch';
export * from './refusal';
