/**
 * Maps every failure (domain, Nest, body parser, multer, validation) to problem+json.
 * Unknown errors become a 500 whose detail does not leak internals.
 */
import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ZodError } from 'zod';
import { DomainError } from '@shellgrade/domain';
import { problem, sendProblem, STATUS_BY_KIND, type Problem } from './problem';

interface ParserError {
  type?: string;
  status?: number;
  code?: string;
  message?: string;
}

@Catch()
export class ProblemFilter implements ExceptionFilter {
  private readonly log = new Logger('ProblemFilter');

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    const { body, retryAfter } = this.toProblem(error);
    body.instance = req.originalUrl ?? req.url;
    if (body.status >= 500 && body.status !== 503 && body.status !== 504) {
      this.log.error(`${req.method} ${body.instance}: ${describe(error)}`);
    }
    sendProblem(res, body, retryAfter);
  }

  private toProblem(error: unknown): { body: Problem; retryAfter?: number } {
    if (error instanceof DomainError) {
      return {
        body: problem(STATUS_BY_KIND[error.kind], error.message, error.details),
        retryAfter: error.retryAfterSeconds,
      };
    }
    if (error instanceof ZodError) {
      const errors = error.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
      const first = errors[0];
      return { body: problem(400, first ? `${first.field || 'body'}: ${first.message}` : 'invalid request', { errors }) };
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      const response = error.getResponse();
      const detail =
        typeof response === 'string'
          ? response
          : String((response as { message?: unknown }).message ?? error.message);
      return { body: problem(status, detail) };
    }
    const parser = error as ParserError;
    if (parser?.type === 'entity.too.large' || parser?.code === 'LIMIT_FILE_SIZE') {
      return { body: problem(413, 'request body is larger than the configured limit') };
    }
    if (parser?.type === 'entity.parse.failed') {
      return { body: problem(400, `malformed JSON body: ${parser.message ?? ''}`.trim()) };
    }
    if (typeof parser?.code === 'string' && parser.code.startsWith('LIMIT_')) {
      return { body: problem(400, `invalid multipart body: ${parser.message ?? parser.code}`) };
    }
    if (typeof parser?.status === 'number' && parser.status >= 400 && parser.status < 500) {
      return { body: problem(parser.status, parser.message ?? 'bad request') };
    }
    return { body: problem(500, 'internal error') };
  }
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? error.message;
  return String(error);
}
