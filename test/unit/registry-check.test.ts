import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { main } from '../../server/cli/main.ts';
import { createLogger } from '../../server/observability/logger.ts';
import { createQuestline } from '../../server/questline.ts';

// One registry of implementations, checked when a flow is loaded: a named
// validator or action nobody registered is a diagnostic with file:line:col
// from `questline validate --config` and at server start, never a refusal
// in the middle of a visitor's conversation.

const FLOW = `{
  "version": "v1",
  "id": "flow.order",
  "nodes": [
    { "id": "q.ref", "type": "question", "key": "ref", "prompt": "Order reference?",
      "validate": [{ "expr": "len(value) > 2" }, { "name": "order_ref" }] },
    { "id": "a.look", "type": "action", "call": "orders.lookup", "input_map": { "ref": "answers.ref" } },
    { "id": "n.done", "type": "terminal" }
  ]
}
`;
const MISSING_VALIDATOR = "order.flow.json:6:60: error [unregistered_validator] validator 'order_ref' is not registered";
const MISSING_ACTION = "order.flow.json:7:49: error [unregistered_action] action 'orders.lookup' is not registered";

const dir = mkdtempSync(join(tmpdir(), 'questline-registry-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, text);
  return file;
};
write('order.flow.json', FLOW);
const none = write('none.config.mjs', 'export default {};\n');
const both = write('both.config.mjs', [
  'export default {',
  "  validators: { order_ref: (v) => (/^ORD-/.test(String(v)) ? null : 'not an order reference') },",
  "  actions: { 'orders.lookup': async () => ({}) },",
  '};',
].join('\n'));

/** Runs the CLI in-process from `dir`, so diagnostics name files as given. */
async function run(...argv: string[]) {
  let err = '';
  const cwd = process.cwd();
  process.chdir(dir);
  try {
    const code = await main(argv, { out: () => {}, err: (t) => (err += `${t}\n`) });
    return { code, err };
  } finally {
    process.chdir(cwd);
  }
}

describe('questline validate --config', () => {
  it('reports every unregistered validator and action with file:line:col and exits 1', async () => {
    const r = await run('validate', '--config', none, 'order.flow.json');
    expect(r.code).toBe(1);
    expect(r.err).toContain(MISSING_VALIDATOR);
    expect(r.err).toContain(MISSING_ACTION);
    expect(r.err).toContain('0 of 1 flow file valid');
  });

  it('passes a flow whose names are all registered', async () => {
    const r = await run('validate', '--config', both, 'order.flow.json');
    expect(r.err).toContain('ok order.flow.json: flow.order');
    expect(r.code).toBe(0);
  });

  it('without --config checks the flow alone, as before (the registry is unknown)', async () => {
    const r = await run('validate', 'order.flow.json');
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('unregistered');
  });

  it('refuses a config file that does not exist or exports something else', async () => {
    expect((await run('validate', '--config', 'nope.mjs', 'order.flow.json')).code).toBe(2);
    const typo = write('typo.config.mjs', 'export default { validator: {} };\n');
    const r = await run('validate', '--config', typo, 'order.flow.json');
    expect(r.code).toBe(1);
    expect(r.err).toContain('unknown field validator (expected validators, actions, extractor)');
  });
});

describe('server start', () => {
  /** A logger whose lines land in `lines`. */
  function capture() {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line.trim()) lines.push(String((JSON.parse(line) as { msg: unknown }).msg));
        done();
      },
    });
    return { lines, logger: createLogger('info', sink) };
  }
  const flows = join(dir, 'flows');
  write('flows/global/order.flow.json', FLOW);
  write('flows/tenants/shop/tenant.json', JSON.stringify({ id: 'shop', name: 'Shop', keys: ['pk_shop_orders'], origins: ['http://localhost:3000'], flows: ['flow.order'] }));

  it('refuses to serve a flow naming an unregistered validator, saying where, as validate does', async () => {
    const { lines, logger } = capture();
    const q = await createQuestline({ flowsDir: flows, logger, actions: { 'orders.lookup': async () => ({}) } });
    try {
      expect(q.tenants.flows('shop')).toEqual([]);
      const problem = lines.find((l) => l.includes('unregistered_validator'));
      expect(problem).toContain(`${join(flows, 'global', MISSING_VALIDATOR)}`);
      expect(lines.some((l) => l.includes('unregistered_action'))).toBe(false);
      expect(lines).toContain('tenant shop: 0 of 1 flows served');
    } finally {
      await q.close();
    }
  });

  it('serves it once both are registered', async () => {
    const q = await createQuestline({
      flowsDir: flows, logger: createLogger('silent'),
      validators: { order_ref: () => null }, actions: { 'orders.lookup': async () => ({}) },
    });
    try {
      expect(q.tenants.flows('shop')).toEqual(['flow.order']);
    } finally {
      await q.close();
    }
  });
});
