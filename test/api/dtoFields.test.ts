/**
 * Records in response bodies: their fields come in the order the real service writes them (the
 * HTTP server sends the JSON text as built), optional fields in their place when present, and every
 * body owns its objects (changing one answer's nested settings changes no later answer).
 */
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/index.js';

describe('response records', () => {
  it('keep their fields in the service order, optional ones in place', () => {
    const sim = new Simulation({ seed: 2 });
    const created = sim.request('POST', '/projects', {
      project: { default_endpoint_settings: { suspend_timeout_seconds: 600 } },
    });
    expect(created.status).toBe(201);
    const project = created.body.project as Record<string, unknown>;
    expect(Object.keys(project)).toEqual([
      'id',
      'platform_id',
      'region_id',
      'name',
      'provisioner',
      'pg_version',
      'proxy_host',
      'branch_logical_size_limit',
      'branch_logical_size_limit_bytes',
      'store_passwords',
      'creation_source',
      'history_retention_seconds',
      'default_endpoint_settings',
      'settings',
      'created_at',
      'updated_at',
      'owner_id',
      'org_id',
      'cpu_used_sec',
      'consumption_period_start',
      'consumption_period_end',
      'active_time_seconds',
      'compute_time_seconds',
      'written_data_bytes',
      'data_transfer_bytes',
      'data_storage_bytes_hour',
    ]);
    expect(project['consumption_period_end']).toBe('2026-02-04T00:00:00Z');
    expect(Object.keys(created.body.endpoints[0])).toEqual([
      'host',
      'id',
      'project_id',
      'branch_id',
      'autoscaling_limit_min_cu',
      'autoscaling_limit_max_cu',
      'region_id',
      'type',
      'current_state',
      'pending_state',
      'settings',
      'pooler_enabled',
      'pooler_mode',
      'disabled',
      'passwordless_access',
      'creation_source',
      'created_at',
      'updated_at',
      'proxy_host',
      'suspend_timeout_seconds',
      'provisioner',
    ]);
    expect(Object.keys(created.body.branch)).toEqual([
      'id',
      'project_id',
      'name',
      'current_state',
      'state_changed_at',
      'logical_size',
      'creation_source',
      'default',
      'protected',
      'cpu_used_sec',
      'active_time_seconds',
      'compute_time_seconds',
      'written_data_bytes',
      'data_transfer_bytes',
      'created_at',
      'updated_at',
      'pending_state',
      'init_source',
      'primary',
    ]);
    const operations = created.body.operations as Record<string, unknown>[];
    const onCompute = operations.find((o) => o['endpoint_id'] !== undefined);
    expect(Object.keys(onCompute ?? {})).toEqual([
      'id',
      'project_id',
      'branch_id',
      'endpoint_id',
      'action',
      'status',
      'failures_count',
      'created_at',
      'updated_at',
      'total_duration_ms',
    ]);

    sim.advance('1m');
    const projectId = project['id'] as string;
    const endpointId = created.body.endpoints[0].id as string;
    const got = sim.request('GET', `/projects/${projectId}/endpoints/${endpointId}`);
    const keys = Object.keys(got.body.endpoint);
    expect(keys.slice(keys.indexOf('updated_at'), keys.indexOf('proxy_host') + 1)).toEqual([
      'updated_at',
      'started_at',
      'proxy_host',
    ]);
  });

  it('own their nested objects', () => {
    const sim = new Simulation({ seed: 2 });
    const first = sim.request('POST', '/projects', { project: {} });
    const settings = first.body.project.settings;
    settings.allowed_ips.ips.push('10.0.0.1');
    settings.maintenance_window.weekdays[0] = 1;
    settings.quota.active_time_seconds = 5;
    const projectId = first.body.project.id as string;
    const again = sim.request('GET', `/projects/${projectId}`);
    expect(again.body.project.settings).toEqual({
      allowed_ips: { ips: [], protected_branches_only: false },
      enable_logical_replication: false,
      maintenance_window: { weekdays: [7], start_time: '02:00', end_time: '03:00' },
      block_public_connections: false,
      block_vpc_connections: false,
      hipaa: false,
      quota: {},
    });
  });
});
