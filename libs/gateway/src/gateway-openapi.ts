/**
 * OpenAPI document for /docs: the gateway's own endpoints plus its routing table, so a
 * reader sees which upstream serves which path. Built once per request of /docs-json.
 */
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { withApiContract } from '@shellgrade/api-contract';
import type { GatewayConfig } from './gateway-config';
import { ROUTE_TABLE, type UpstreamName } from './route-table';

const PROXIED_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function gatewayOpenApi(app: INestApplication, config: GatewayConfig): OpenAPIObject {
  const urls: Record<UpstreamName, string> = {
    exercise: config.exerciseUrls.join(', '),
    leftover: config.leftoverUrls.join(', '),
  };
  const table = ROUTE_TABLE.map(
    (rule) => `| \`/api/${rule.segment.source.replace(/^\^|\$$/g, '')}\` | ${rule.upstream} (${urls[rule.upstream]}) | ${rule.description} |`,
  ).join('\n');
  const info = new DocumentBuilder()
    .setTitle('shellgrade gateway')
    .setDescription(
      'API gateway of the MSA variants (paper 000 §III). It only routes; bodies are streamed unparsed.\n\n' +
        '| first segment after /api | upstream | what |\n|---|---|---|\n' +
        table +
        `\n\nUpstream errors: 504 after ${config.upstreamTimeoutMs} ms without a response, 502 when the ` +
        'connection fails, 503 (Retry-After) while a replica is known down. CORS preflights are answered here.',
    )
    .build();
  const doc = withApiContract(SwaggerModule.createDocument(app, info)); // the bodies the upstreams answer with
  for (const rule of ROUTE_TABLE) {
    for (const path of rule.documentedPaths) {
      const item: Record<string, unknown> = {};
      for (const method of PROXIED_METHODS) {
        item[method] = {
          tags: [`routed to ${rule.upstream}`],
          summary: `proxied to ${rule.upstream}: ${rule.description}`,
          operationId: `${method}_${rule.upstream}_${path.replace(/\W+/g, '_')}`,
          responses: {
            default: { description: `whatever the ${rule.upstream} service answers` },
            '502': { description: 'upstream connection failed (problem+json)' },
            '503': { description: 'upstream known down, see Retry-After (problem+json)' },
            '504': { description: 'upstream did not answer in time (problem+json)' },
          },
          'x-upstream': rule.upstream,
        };
      }
      doc.paths[path] = item;
    }
  }
  return doc;
}
