// Where a run is delivered. A target is an object with exactly one key naming its kind: `{ <kind>: value }`.
// This module owns that envelope only: the list of kinds, `targetKind`, and `parseTarget`, which checks the
// envelope and hands the value to its kind's shape (TARGET_SHAPES). Each kind's fields, validation and JSON
// Schema live in its shape module beside its driver (src/targets/<kind>/<kind>-shape.ts), pure as this one.
// Delivery lives in src/targets/. It must never perform I/O.

import { PunctualError } from '../errors.js';
import { commandShape } from '../targets/command/command-shape.js';
import { amqpShape, natsShape, redisShape } from '../targets/brokers/broker-shapes.js';
import { handlerShape } from '../targets/handler-shape.js';
import { scriptShape } from '../targets/script/script-shape.js';
import type { TargetShape } from '../targets/target-shape.js';
import { webhookShape } from '../targets/webhook/webhook-shape.js';

export type { HandlerTarget } from '../targets/handler-shape.js';
export type { WebhookTarget } from '../targets/webhook/webhook-shape.js';
export { WEBHOOK_METHODS } from '../targets/webhook/webhook-shape.js';
export type { RedisTarget, NatsTarget, AmqpTarget, BrokerTarget } from '../targets/brokers/broker-shapes.js';
export type { ScriptTarget } from '../targets/script/script-shape.js';
export type { CommandTarget } from '../targets/command/command-shape.js';
export type { JsonSchema, TargetShape } from '../targets/target-shape.js';

/** Every target kind, in the order docs and messages list them: the one list the service and UI derive from. */
export const TARGET_KINDS = ['handler', 'webhook', 'redis', 'nats', 'amqp', 'script', 'command'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** Each kind's shape (validation and JSON Schema), by kind: the registry the service's schemas are built from. */
export const TARGET_SHAPES = {
  handler: handlerShape,
  webhook: webhookShape,
  redis: redisShape,
  nats: natsShape,
  amqp: amqpShape,
  script: scriptShape,
  command: commandShape,
} as const satisfies { readonly [K in TargetKind]: TargetShape<K, unknown> };

/** The value under kind K's key, as its shape returns it. */
export type TargetValue<K extends TargetKind> = ReturnType<(typeof TARGET_SHAPES)[K]['parse']>;

/** A target of any kind: `{ [kind]: value }` with exactly one kind. */
export type Target = { [K in TargetKind]: { [P in K]: TargetValue<K> } }[TargetKind];

const KINDS: readonly TargetKind[] = TARGET_KINDS;

export function targetKind(t: Target): TargetKind {
  return Object.keys(t)[0] as TargetKind;
}

/** Validates the shape of a target (not whether a handler exists: the scheduler checks that). */
export function parseTarget(input: unknown): Target {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new PunctualError('SCHEDULE_INVALID', 'target must be an object such as { "handler": "name" }', {
      field: 'target',
    });
  }
  const keys = Object.keys(input);
  const kind = keys[0] as TargetKind;
  if (keys.length !== 1 || !KINDS.includes(kind)) {
    throw new PunctualError('SCHEDULE_INVALID', `target must have exactly one of: ${KINDS.join(', ')}`, {
      field: 'target',
    });
  }
  const shape: TargetShape<TargetKind, unknown> = TARGET_SHAPES[kind];
  return { [kind]: shape.parse((input as Record<string, unknown>)[kind]) } as Target;
}
