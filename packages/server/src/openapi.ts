import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ErrorResponseDto } from '@coinpurse/contract';

/** The OpenAPI document of the whole API; operation ids are the handler names, so they must be unique. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Coinpurse API')
    .setDescription(
      'Custodial wallet and exchange API. Every error is `{ statusCode, error }` where `error` is a message for people. ' +
        'Send the session token as `Authorization: Bearer <token>`. Money amounts are exact decimals.',
    )
    .setVersion('1.0.0')
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controllerKey, methodKey) => methodKey,
    extraModels: [ErrorResponseDto],
  });
  checkDocument(document);
  return document;
}

/** Every operation declares its access level, and operation ids are unique (they become client hook names). */
function checkDocument(document: OpenAPIObject): void {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { operationId?: string; 'x-access'?: string }>)) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (!operation['x-access']) problems.push(`${where} declares no access level (use PublicAccess/UserAccess/AdminAccess...)`);
      const id = operation.operationId ?? '';
      if (seen.has(id)) problems.push(`${where} and ${seen.get(id)} share the operation id "${id}" (rename a handler)`);
      seen.set(id, where);
    }
  }
  if (problems.length) throw new Error(`OpenAPI document problems:\n${problems.join('\n')}`);
}
