export * from './errors';
export * from './entities';
export * from './ports';
export * from './catalog-ports';
export * from './submission';
export * from './archive-integrity';
export * from './session-report';
