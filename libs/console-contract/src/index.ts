export * from './figures';
export * from './launch-progress';
export * from './launch';
export * from './compare';
export * from './results';
export * from './reports';
export * from './trend';
export * from './pair-verdicts';
