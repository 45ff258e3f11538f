export * from './errors';
export * from './entities';
export * from './ports';
export * from './catalog-ports';
export * from './submission';
export * from './session-report';
