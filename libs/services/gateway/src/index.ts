export * from './gateway.module';
export * from './openapi/openapi-document';
export { SIGN_IN_FAILURES_PER_ADDRESS, SIGN_IN_FAILURES_PER_EMAIL, SIGN_IN_FAILURE_WINDOW_SECONDS } from './people/sign-in-attempts.service';
