import { type Kysely, sql } from "kysely";
import type { Engine } from "./engine.js";

/**
 * PostgreSQL: `hcs_settle_group(group jsonb) returns jsonb`, a settlement group commit in one call — the writes of
 * operations/settle-writes.ts (rate-limit counts, charges, ledger rows, audit events with their context) with the
 * same meaning, so that the request path sends one statement per group instead of seven (BEGIN, one statement per
 * table, COMMIT; docs/performance.md#postgresql-one-round-trip-per-settlement-group). Sent on its own, the call is
 * its own transaction: every write of the group
 * commits together, or none does. The caller (operations/settle-group-postgres.ts) decides everything that does not
 * depend on the rows: the counters in key order with the group's total for each, each call's place in its
 * counters, the accounts in id order, each way a call's event can end. Its argument:
 *   n: [[bucket, window_start, calls, expires_at], …]  the group's counters, in key order (the order rows are locked)
 *   a: [account_id, …]                                   the accounts charged, in id order (the order rows are locked)
 *   c: [call, …]                                         each call, in order, with (each key optional)
 *     k:  [[counter, place, limit], …]  the counters it is counted in (index into n), its place among the group's
 *                                       calls counted there (1 = first) and the window's limit (null: never limited)
 *     ch: [account_id, amount, operation, reference, at]   the credits to take unless it is limited
 *     e:  [at, request_id, actor_key_id, actor_account_id, actor_operator, action, transport, resource, salt,
 *          client_ip, duration_ms]                          its audit event's fields
 *     ea, el, es: [status, code, outcome]  the event as answered, limited (429), short (402); absent: not audited so
 * It answers {n: [each counter's count after the group], c: [[charged, balance] or null for each call]}.
 * SQLite keeps writing a group statement by statement on its one connection (no round trips to save).
 */
export function settleGroupMigration(engine: Engine) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (engine === "sqlite") return;
      await sql`create function hcs_settle_group(grp jsonb) returns jsonb language plpgsql as $$
        declare
          calls constant jsonb := grp->'c';
          size constant int := jsonb_array_length(grp->'c');
          counted int[] := '{}';
          limited boolean[];
          charged boolean[] := array_fill(null::boolean, array[size]);
          balances int[] := array_fill(null::int, array[size]);
          account text;
          total int;
          taken int;
          balance int;
          i int;
        begin
          -- Rate-limit counts: one upsert for the group's counters, taking their rows in the order given (key order, as
          -- every writer does); each counter's count after the group, in that order.
          with upserted as (
            insert into rate_limits (bucket, window_start, count, expires_at)
              select e->>0, (e->>1)::bigint, (e->>2)::int, (e->>3)::bigint
              from jsonb_array_elements(grp->'n') with ordinality as t(e, o)
              order by o
              on conflict (bucket, window_start) do update set count = rate_limits.count + excluded.count
              returning bucket, window_start, count
          )
          select coalesce(array_agg(upserted.count order by t.o), '{}') into counted
            from upserted join jsonb_array_elements(grp->'n') with ordinality as t(e, o)
              on upserted.bucket = t.e->>0 and upserted.window_start = (t.e->>1)::bigint;
          -- A call is over its limit when a count it saw (the count before the group plus its place) exceeds the limit.
          select array_agg(coalesce(over, false) order by o) into limited
            from jsonb_array_elements(calls) with ordinality as t(c, o)
            left join lateral (
              select bool_or(counted[(p->>0)::int + 1] - (grp->'n'->((p->>0)::int)->>2)::int + (p->>1)::int > (p->>2)::int)
                as over
              from jsonb_array_elements(c->'k') as p
            ) as places on true;
          -- Charges, per account in the order given: all of them with one update while the account holds their sum,
          -- else one by one in call order, each taken if the balance still holds it (chargeAll in services/credits.ts).
          for account in select value from jsonb_array_elements_text(grp->'a') with ordinality order by ordinality loop
            select coalesce(sum((c->'ch'->>1)::int), 0) into total
              from jsonb_array_elements(calls) with ordinality as t(c, o)
              where c->'ch'->>0 = account and not limited[o];
            continue when total = 0;
            update accounts set credits = credits - total where id = account and credits >= total
              returning credits into balance;
            if found then
              balance := balance + total;
              for i in 1 .. size loop
                continue when calls->(i - 1)->'ch'->>0 is distinct from account or limited[i];
                balance := balance - (calls->(i - 1)->'ch'->>1)::int;
                charged[i] := true;
                balances[i] := balance;
              end loop;
            else
              for i in 1 .. size loop
                continue when calls->(i - 1)->'ch'->>0 is distinct from account or limited[i];
                taken := (calls->(i - 1)->'ch'->>1)::int;
                update accounts set credits = credits - taken where id = account and credits >= taken
                  returning credits into balance;
                charged[i] := found;
                if not found then
                  select credits into balance from accounts where id = account;
                end if;
                balances[i] := coalesce(balance, 0);
              end loop;
            end if;
          end loop;
          -- One ledger row per charge taken, in call order.
          insert into credit_ledger (account_id, delta, balance_after, operation, reference, created_at)
            select c->'ch'->>0, -(c->'ch'->>1)::int, balances[o], c->'ch'->>2, c->'ch'->>3, c->'ch'->>4
            from jsonb_array_elements(calls) with ordinality as t(c, o)
            where charged[o]
            order by o;
          -- Audit events in call order, each as its call ended (limited, else short, else as answered), and each
          -- event's context keyed by its id (told apart by salt). Only inserted: the sequencer gives them their place.
          with ended as (
            select o, c->'e' as e,
              case when limited[o] then c->'el' when not charged[o] then c->'es' else c->'ea' end as v
            from jsonb_array_elements(calls) with ordinality as t(c, o)
          ), inserted as (
            insert into audit_events (at, request_id, actor_key_id, actor_account_id, actor_operator, action,
                transport, resource, outcome, status, code, salt)
              select e->>0, e->>1, e->>2, e->>3, e->>4, e->>5, e->>6, e->>7, v->>2, (v->>0)::int, v->>1, e->>8
              from ended
              where e is not null and v is not null
              order by o
              returning id, salt
          )
          insert into audit_context (event_id, at, client_ip, duration_ms)
            select inserted.id, ended.e->>0, ended.e->>9, (ended.e->>10)::real
            from inserted join ended on ended.e->>8 = inserted.salt;
          return jsonb_build_object(
            'n', to_jsonb(counted),
            'c', (select jsonb_agg(case when charged[o] is null then null else jsonb_build_array(charged[o], balances[o]) end
                    order by o)
                  from generate_series(1, size) as o));
        end $$`.execute(db);
    },
  };
}
