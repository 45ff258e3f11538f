export { describeLoginRoutes } from './login-routes';
export { startTestApp } from './test-app';
export { describeJsonBodyAuth } from './json-body-auth';
