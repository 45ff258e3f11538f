export * from './session-report.controller';
export * from './session-report.view';
