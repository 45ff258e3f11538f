export * from './broker-config';
export * from './inline.dispatch';
export * from './refusal';
