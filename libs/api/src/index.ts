export * from './production';
export * from './admin';
export * from './report';
export * from './auth';
export * from './exercise-trial.controller';
