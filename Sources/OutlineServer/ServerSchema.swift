/// The server's side of a shared outline, as SQL: schema `burrow`, versioned like the SQLite store's model
/// (`burrow.meta`'s `schema_version`; a program refuses a server it does not know), and the one function
/// every change goes through, `burrow.apply(outline, op_id, client, op)`.
///
/// PostgreSQL decides (docs/DECISIONS.md): `apply` takes the outline's row lock, so the operations of one
/// outline are applied one at a time in the order their sequence numbers give; it ignores an operation ID it
/// has applied already (answering what it answered then), refuses a move that would make a cycle, keeps
/// sibling order keys unique (a new key just after a taken one), puts an insert or move whose parent is gone
/// under the outline's "Recovered" item, and appends what it did to `burrow.change` with the next sequence
/// number, then rings `NOTIFY` (a doorbell only: clients read `seq >` their checkpoint).
enum ServerSchema {
    /// The schema version this program writes and reads.
    static let version = 5

    /// The statements that take a server from version `k` to `k + 1`, for each `k` from 0.
    static let migrations: [[String]] = [version1, version2, version3, version4, version5]

    /// Items' extras (a task's state, priority, dates, properties, Org headline and tag list): `burrow.item.extras`,
    /// a JSON object of texts by the client's field name, sent and given back as fields `x.NAME` (an insert's,
    /// a set's, a change's rows), each set or removed (null) on its own, so two devices setting different
    /// extras of one item both keep theirs; an undo expects each as it was (a missing one as null). The
    /// digest hashes them after done, by name (`item_hash2`; an item without extras hashes as before, so
    /// digests kept so far stay true). A program of schema 4 refuses this server ("a newer Burrow").
    static let version5: [String] = [
        "ALTER TABLE burrow.item ADD COLUMN extras jsonb NOT NULL DEFAULT '{}'::jsonb",
        // The `x.NAME` text fields of an operation or row as extras (other values are not extras).
        """
        CREATE FUNCTION burrow.extras_of(r jsonb) RETURNS jsonb LANGUAGE sql IMMUTABLE AS $$
            SELECT coalesce(jsonb_object_agg(substr(e.key, 3), e.value), '{}'::jsonb) FROM jsonb_each(r) e
            WHERE e.key IN (\(extraFields)) AND jsonb_typeof(e.value) = 'string'
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION burrow.row_of(o uuid, i uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
            SELECT jsonb_build_object('id', id, 'parent', parent, 'ord', ord, 'title', title, 'note', note, 'done', done)
                || coalesce((SELECT jsonb_object_agg('x.' || e.key, e.value) FROM jsonb_each(extras) e), '{}'::jsonb)
            FROM burrow.item WHERE outline = o AND id = i
        $$
        """,
        applyFunction5,
        "ALTER FUNCTION burrow.apply(uuid, uuid, text, jsonb) SECURITY DEFINER SET search_path = pg_catalog, pg_temp",
        """
        CREATE FUNCTION burrow.item_hash2(id uuid, parent uuid, ord text, title text, note text, done boolean, extras jsonb) RETURNS bigint \
        LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN parent IS NULL THEN 0::bigint ELSE ('x' || encode(substr(sha256(convert_to(
                id::text || '/' || parent::text || '/' || octet_length(ord) || ':' || ord || octet_length(title) || ':' || title
                || coalesce(octet_length(note) || ':' || note, '~') || CASE WHEN done THEN 'T' ELSE 'F' END
                || coalesce((SELECT string_agg(octet_length(e.key) || ':' || e.key || octet_length(e.value) || ':' || e.value, '' \
                    ORDER BY e.key COLLATE "C") FROM jsonb_each_text(extras) e), ''), 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint END
        $$
        """,
        """
        CREATE OR REPLACE FUNCTION burrow.keep_digest() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
                UPDATE burrow.outline o SET digest = o.digest # d.x FROM (
                    SELECT t.outline, bit_xor(burrow.item_hash2(t.id, t.parent, t.ord, t.title, t.note, t.done, t.extras)) AS x
                    FROM gone_rows t GROUP BY t.outline
                ) d WHERE o.id = d.outline;
            END IF;
            IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
                UPDATE burrow.outline o SET digest = o.digest # d.x FROM (
                    SELECT t.outline, bit_xor(burrow.item_hash2(t.id, t.parent, t.ord, t.title, t.note, t.done, t.extras)) AS x
                    FROM new_rows t GROUP BY t.outline
                ) d WHERE o.id = d.outline;
            END IF;
            RETURN NULL;
        END $$
        """,
        "REVOKE EXECUTE ON FUNCTION burrow.item_hash2(uuid, uuid, text, text, text, boolean, jsonb), burrow.extras_of(jsonb) FROM PUBLIC"
    ]

    /// The extras a server of this schema keeps, as SQL strings (`'x.state', …`): a device keeps and hashes
    /// exactly these, so an unknown one (or a value that is not text) is never stored where it could make
    /// every device's digest differ; a new one is a new schema version.
    static let extraFields = ["state", "priority", "scheduled", "deadline", "closed", "properties", "orgHead", "tagList"]
        .map { "'x.\($0)'" }.joined(separator: ", ")

    /// Version 1's `burrow.apply` with extras: an insert's and a restore's rows keep their `x.` fields, a set
    /// sets or removes each it names, an expected extra the item lacks is null.
    static let applyFunction5: String = {
        var text = applyFunction
        let changes = [
            ("CREATE FUNCTION burrow.apply", "CREATE OR REPLACE FUNCTION burrow.apply"),
            (
                "INSERT INTO burrow.item (outline, id, parent, ord, title, note, done)",
                "INSERT INTO burrow.item (outline, id, parent, ord, title, note, done, extras)"
            ),
            ("coalesce((r->>'done')::boolean, false));", "coalesce((r->>'done')::boolean, false), burrow.extras_of(r));"),
            (
                "IF (burrow.row_of(o, i)->f) IS DISTINCT FROM (op->'expect'->f) THEN",
                "IF coalesce(burrow.row_of(o, i)->f, 'null'::jsonb) IS DISTINCT FROM coalesce(op->'expect'->f, 'null'::jsonb) THEN"
            ),
            (
                "done = CASE WHEN op->'set' ? 'done' THEN coalesce((op->'set'->>'done')::boolean, false) ELSE done END",
                """
                done = CASE WHEN op->'set' ? 'done' THEN coalesce((op->'set'->>'done')::boolean, false) ELSE done END,
                                            extras = jsonb_strip_nulls(extras || coalesce((SELECT jsonb_object_agg(substr(e.key, 3), e.value) \
                                                FROM jsonb_each(op->'set') e WHERE e.key IN (\(extraFields)) \
                                                AND jsonb_typeof(e.value) IN ('string', 'null')), '{}'::jsonb))
                """
            )
        ]
        for (old, new) in changes {
            precondition(text.contains(old), "version 1's apply has changed: \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text
    }()

    /// `burrow.free_key` through the `(outline, parent, ord)` index: version 1's `parent IS NOT DISTINCT FROM p`
    /// cannot use it, so every insert and move read every item of the outline (an upload of 100,000 items took
    /// 261 s, a restore of 1,000 into it 5.8 s). `p` is never NULL: only the top item has no parent, and it is
    /// never placed.
    static let version4: [String] = [
        """
        CREATE OR REPLACE FUNCTION burrow.free_key(o uuid, p uuid, want text, self uuid) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE k text := want; nxt text;
        BEGIN
            WHILE EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND parent = p AND ord = k AND id <> self) LOOP
                SELECT min(ord) INTO nxt FROM burrow.item WHERE outline = o AND parent = p AND ord > k;
                k := burrow.key_after(k, nxt);
            END LOOP;
            RETURN k;
        END $$
        """
    ]

    /// `burrow.outline.digest`: ``OutlineDigest`` of each outline, kept by statement triggers on `burrow.item`
    /// in the transaction of every change (so read with `last_seq`, it is the digest as of that change), and
    /// computed once for the outlines already there. `burrow.item_hash` is `OutlineDigest.hash` in SQL.
    static let version3: [String] = [
        "ALTER TABLE burrow.outline ADD COLUMN digest bigint NOT NULL DEFAULT 0",
        """
        CREATE FUNCTION burrow.item_hash(id uuid, parent uuid, ord text, title text, note text, done boolean) RETURNS bigint \
        LANGUAGE sql IMMUTABLE AS $$
            SELECT CASE WHEN parent IS NULL THEN 0::bigint ELSE ('x' || encode(substr(sha256(convert_to(
                id::text || '/' || parent::text || '/' || octet_length(ord) || ':' || ord || octet_length(title) || ':' || title
                || coalesce(octet_length(note) || ':' || note, '~') || CASE WHEN done THEN 'T' ELSE 'F' END, 'UTF8')), 1, 8), 'hex'))::bit(64)::bigint END
        $$
        """,
        // One function for the three triggers: each names only the transition tables its event has (PL/pgSQL
        // plans a statement when it first runs it, so the other branch's table is never looked up).
        """
        CREATE FUNCTION burrow.keep_digest() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
                UPDATE burrow.outline o SET digest = o.digest # d.x FROM (
                    SELECT t.outline, bit_xor(burrow.item_hash(t.id, t.parent, t.ord, t.title, t.note, t.done)) AS x FROM gone_rows t GROUP BY t.outline
                ) d WHERE o.id = d.outline;
            END IF;
            IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
                UPDATE burrow.outline o SET digest = o.digest # d.x FROM (
                    SELECT t.outline, bit_xor(burrow.item_hash(t.id, t.parent, t.ord, t.title, t.note, t.done)) AS x FROM new_rows t GROUP BY t.outline
                ) d WHERE o.id = d.outline;
            END IF;
            RETURN NULL;
        END $$
        """,
        "CREATE TRIGGER item_digest_insert AFTER INSERT ON burrow.item REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION burrow.keep_digest()",
        """
        CREATE TRIGGER item_digest_update AFTER UPDATE ON burrow.item REFERENCING OLD TABLE AS gone_rows NEW TABLE AS new_rows \
        FOR EACH STATEMENT EXECUTE FUNCTION burrow.keep_digest()
        """,
        "CREATE TRIGGER item_digest_delete AFTER DELETE ON burrow.item REFERENCING OLD TABLE AS gone_rows FOR EACH STATEMENT EXECUTE FUNCTION burrow.keep_digest()",
        """
        UPDATE burrow.outline o SET digest = coalesce((SELECT bit_xor(burrow.item_hash(i.id, i.parent, i.ord, i.title, i.note, i.done)) \
        FROM burrow.item i WHERE i.outline = o.id), 0)
        """,
        "REVOKE EXECUTE ON FUNCTION burrow.item_hash(uuid, uuid, text, text, text, boolean), burrow.keep_digest() FROM PUBLIC"
    ]

    /// `burrow.apply_all(outline, client, ops)`: the operations `[{"id": op_id, "op": op}, …]` applied in
    /// order by `burrow.apply`, in one statement (one transaction, one round trip); their answers, in order.
    /// A thousand actions queued offline go up in one exchange, not a thousand.
    static let version2: [String] = [
        """
        CREATE FUNCTION burrow.apply_all(o uuid, client text, ops jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
        DECLARE r jsonb; answers jsonb[] := '{}';
        BEGIN
            FOR r IN SELECT * FROM jsonb_array_elements(ops) LOOP
                answers := answers || burrow.apply(o, (r->>'id')::uuid, client, r->'op');
            END LOOP;
            RETURN to_jsonb(answers);
        END $$
        """,
        "ALTER FUNCTION burrow.apply_all(uuid, text, jsonb) SECURITY DEFINER SET search_path = pg_catalog, pg_temp",
        "REVOKE EXECUTE ON FUNCTION burrow.apply_all(uuid, text, jsonb) FROM PUBLIC",
        "GRANT EXECUTE ON FUNCTION burrow.apply_all(uuid, text, jsonb) TO burrow_client"
    ]

    static let version1: [String] = [
        "CREATE SCHEMA IF NOT EXISTS burrow",
        "CREATE TABLE burrow.meta (key text PRIMARY KEY, value text NOT NULL)",
        // `last_seq`: the newest change's number; `recovered`: the item that takes what lost its parent.
        """
        CREATE TABLE burrow.outline (id uuid PRIMARY KEY, last_seq bigint NOT NULL DEFAULT 0, recovered uuid, \
        created timestamptz NOT NULL DEFAULT now())
        """,
        // Order keys compare byte by byte ("C"), as the client's do. The top item (id = the outline's) has no parent.
        """
        CREATE TABLE burrow.item (outline uuid NOT NULL REFERENCES burrow.outline ON DELETE CASCADE, id uuid NOT NULL, \
        parent uuid, ord text COLLATE "C" NOT NULL, title text NOT NULL DEFAULT '', note text, done boolean NOT NULL DEFAULT false, \
        PRIMARY KEY (outline, id), UNIQUE (outline, parent, ord))
        """,
        "CREATE INDEX item_parent ON burrow.item (outline, parent)",
        // What each operation did, in the order applied: `kind` upsert (rows: the items as they are now) or
        // delete (ids: every item removed).
        """
        CREATE TABLE burrow.change (outline uuid NOT NULL REFERENCES burrow.outline ON DELETE CASCADE, seq bigint NOT NULL, \
        op_id uuid NOT NULL, client text NOT NULL, at timestamptz NOT NULL DEFAULT now(), body jsonb NOT NULL, \
        PRIMARY KEY (outline, seq))
        """,
        // Every operation seen, with its answer, so a resent one is answered again and not applied twice.
        """
        CREATE TABLE burrow.op (outline uuid NOT NULL REFERENCES burrow.outline ON DELETE CASCADE, id uuid NOT NULL, \
        answer jsonb NOT NULL, PRIMARY KEY (outline, id))
        """,
        // A key strictly between `a` and `b` (NULL: no upper bound), both valid keys with a < b (OrderKey's rules:
        // a fraction never ends in the zero digit).
        """
        CREATE FUNCTION burrow.key_after(a text, b text) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
        DECLARE
            digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
            s text; n int := 0; d int;
        BEGIN
            IF b IS NULL OR left(b, length(a)) <> a THEN RETURN a || 'V'; END IF;
            s := substr(b, length(a) + 1);
            WHILE n < length(s) AND substr(s, n + 1, 1) = '0' LOOP n := n + 1; END LOOP;
            d := strpos(digits, substr(s, n + 1, 1)) - 1;
            IF d > 1 THEN RETURN a || left(s, n) || substr(digits, (d + 1) / 2 + 1, 1); END IF;
            IF length(s) > n + 1 THEN RETURN a || left(s, n + 1); END IF;
            RETURN a || left(s, n) || '0V';
        END $$
        """,
        // `want` if no sibling under `parent` has it (other than `self`), else a key just after it.
        """
        CREATE FUNCTION burrow.free_key(o uuid, p uuid, want text, self uuid) RETURNS text LANGUAGE plpgsql AS $$
        DECLARE k text := want; nxt text;
        BEGIN
            WHILE EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND parent IS NOT DISTINCT FROM p AND ord = k AND id <> self) LOOP
                SELECT min(ord) INTO nxt FROM burrow.item WHERE outline = o AND parent IS NOT DISTINCT FROM p AND ord > k;
                k := burrow.key_after(k, nxt);
            END LOOP;
            RETURN k;
        END $$
        """,
        // The item that takes inserts and moves whose parent is gone, made at the end of the top level when
        // first needed.
        """
        CREATE FUNCTION burrow.recovered(o uuid) RETURNS uuid LANGUAGE plpgsql AS $$
        DECLARE r uuid; last text;
        BEGIN
            SELECT recovered INTO r FROM burrow.outline WHERE id = o;
            IF r IS NOT NULL AND EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND id = r) THEN RETURN r; END IF;
            r := gen_random_uuid();
            SELECT max(ord) INTO last FROM burrow.item WHERE outline = o AND parent = o;
            INSERT INTO burrow.item (outline, id, parent, ord, title) VALUES (o, r, o, burrow.key_after(coalesce(last, 'a0'), NULL), 'Recovered');
            UPDATE burrow.outline SET recovered = r WHERE id = o;
            RETURN r;
        END $$
        """,
        // The row of item `i` as a change carries it.
        """
        CREATE FUNCTION burrow.row_of(o uuid, i uuid) RETURNS jsonb LANGUAGE sql STABLE AS $$
            SELECT jsonb_build_object('id', id, 'parent', parent, 'ord', ord, 'title', title, 'note', note, 'done', done)
            FROM burrow.item WHERE outline = o AND id = i
        $$
        """,
        applyFunction,
        // Makes outline `o` and its top item (whose ID is the outline's), unless it is there.
        """
        CREATE FUNCTION burrow.create_outline(o uuid) RETURNS void LANGUAGE sql AS $$
            WITH made AS (INSERT INTO burrow.outline (id) VALUES (o) ON CONFLICT DO NOTHING RETURNING id)
            INSERT INTO burrow.item (outline, id, parent, ord, title) SELECT id, id, NULL, 'a0', '' FROM made
        $$
        """,
        // Least privilege: `burrow_client` (a role without login; grant it to the users of the outlines) may call
        // the two functions and read, nothing more. The functions run as their owner, with a fixed search path.
        "ALTER FUNCTION burrow.apply(uuid, uuid, text, jsonb) SECURITY DEFINER SET search_path = pg_catalog, pg_temp",
        "ALTER FUNCTION burrow.create_outline(uuid) SECURITY DEFINER SET search_path = pg_catalog, pg_temp",
        "REVOKE ALL ON SCHEMA burrow FROM PUBLIC",
        "REVOKE ALL ON ALL TABLES IN SCHEMA burrow FROM PUBLIC",
        "REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA burrow FROM PUBLIC",
        // (Made before the set-up's transaction too: ``clientRole``.)
        clientRole,
        "GRANT USAGE ON SCHEMA burrow TO burrow_client",
        "GRANT SELECT ON burrow.meta, burrow.outline, burrow.item, burrow.change TO burrow_client",
        "GRANT EXECUTE ON FUNCTION burrow.apply(uuid, uuid, text, jsonb), burrow.create_outline(uuid) TO burrow_client",
        "INSERT INTO burrow.meta (key, value) VALUES ('schema_version', '1')"
    ]

    /// Makes the role `burrow_client` unless it is there. Roles belong to the whole cluster, and the schema lock
    /// to one database: two databases set up at once may both try to make it. Waits at most
    /// `ServerConnection.tableLockLimit` for another program's uncommitted role.
    static let clientRole = """
        DO $$ BEGIN
            PERFORM set_config('lock_timeout', '\(ServerConnection.milliseconds(ServerConnection.tableLockLimit))', true);
            IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'burrow_client') THEN CREATE ROLE burrow_client NOLOGIN; END IF;
        EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL;
        END $$
        """

    /// `burrow.apply`: one operation (JSON, see ``ServerOperation``) applied under the outline's lock. Its
    /// answer: `{"status": applied | recovered | rejected, "seq": n, "message": …}`; a repeated `op_id` gets
    /// the first answer again.
    static let applyFunction = """
        CREATE FUNCTION burrow.apply(o uuid, op_id uuid, client text, op jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
        DECLARE
            answer jsonb; kind text := op->>'op'; i uuid; p uuid; status text := 'applied'; message text;
            rows jsonb := '[]'::jsonb; ids jsonb; body jsonb; seq bigint; r jsonb; f text;
        BEGIN
            PERFORM 1 FROM burrow.outline WHERE id = o FOR UPDATE;
            IF NOT FOUND THEN RAISE EXCEPTION 'no outline %', o USING ERRCODE = 'no_data_found'; END IF;
            SELECT a.answer INTO answer FROM burrow.op a WHERE a.outline = o AND a.id = op_id;
            IF FOUND THEN RETURN answer || '{"repeated": true}'::jsonb; END IF;

            IF kind = 'insert' OR kind = 'restore' THEN
                FOR r IN SELECT * FROM jsonb_array_elements(CASE WHEN kind = 'insert' THEN jsonb_build_array(op) ELSE op->'rows' END) LOOP
                    i := (r->>'id')::uuid; p := (r->>'parent')::uuid;
                    IF EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND id = i) THEN CONTINUE; END IF;
                    IF p IS NULL OR NOT EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND id = p) THEN
                        -- The "Recovered" item goes with the change (first: parents before children), made or not.
                        p := burrow.recovered(o); status := 'recovered'; rows := rows || jsonb_build_array(burrow.row_of(o, p));
                        message := 'its parent was deleted: it is under “Recovered”';
                    END IF;
                    INSERT INTO burrow.item (outline, id, parent, ord, title, note, done)
                    VALUES (o, i, p, burrow.free_key(o, p, coalesce(r->>'ord', 'a0'), i), coalesce(r->>'title', ''), r->>'note',
                            coalesce((r->>'done')::boolean, false));
                    rows := rows || jsonb_build_array(burrow.row_of(o, i));
                END LOOP;
            ELSIF kind = 'set' THEN
                i := (op->>'id')::uuid;
                IF NOT EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND id = i) THEN
                    status := 'rejected'; message := 'the item was deleted';
                ELSE
                    -- An undo says what it expects to find: someone else's change since wins.
                    IF op ? 'expect' THEN
                        FOR f IN SELECT jsonb_object_keys(op->'expect') LOOP
                            IF (burrow.row_of(o, i)->f) IS DISTINCT FROM (op->'expect'->f) THEN
                                status := 'rejected'; message := 'it was changed elsewhere since';
                            END IF;
                        END LOOP;
                    END IF;
                    IF status = 'applied' THEN
                        UPDATE burrow.item SET
                            title = CASE WHEN op->'set' ? 'title' THEN coalesce(op->'set'->>'title', '') ELSE title END,
                            note = CASE WHEN op->'set' ? 'note' THEN op->'set'->>'note' ELSE note END,
                            done = CASE WHEN op->'set' ? 'done' THEN coalesce((op->'set'->>'done')::boolean, false) ELSE done END
                        WHERE outline = o AND id = i;
                        rows := jsonb_build_array(burrow.row_of(o, i));
                    END IF;
                END IF;
            ELSIF kind = 'move' THEN
                i := (op->>'id')::uuid; p := (op->>'parent')::uuid;
                IF i = o OR NOT EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND id = i) THEN
                    status := 'rejected'; message := 'the item was deleted';
                ELSE
                    IF p IS NULL OR NOT EXISTS (SELECT 1 FROM burrow.item WHERE outline = o AND id = p) THEN
                        -- The "Recovered" item goes with the change (first: parents before children), made or not.
                        p := burrow.recovered(o); status := 'recovered'; rows := rows || jsonb_build_array(burrow.row_of(o, p));
                        message := 'where it went was deleted: it is under “Recovered”';
                    END IF;
                    IF p = i OR EXISTS (
                        WITH RECURSIVE up(id) AS (
                            SELECT parent FROM burrow.item WHERE outline = o AND id = p
                            UNION SELECT it.parent FROM burrow.item it JOIN up ON it.outline = o AND it.id = up.id)
                        SELECT 1 FROM up WHERE id = i) THEN
                        status := 'rejected'; message := 'it would go inside itself';
                    ELSE
                        UPDATE burrow.item SET parent = p, ord = burrow.free_key(o, p, coalesce(op->>'ord', 'a0'), i)
                        WHERE outline = o AND id = i;
                        rows := rows || jsonb_build_array(burrow.row_of(o, i));
                    END IF;
                END IF;
            ELSIF kind = 'delete' THEN
                i := (op->>'id')::uuid;
                IF i = o THEN
                    status := 'rejected'; message := 'the top item cannot be deleted';
                ELSE
                    WITH RECURSIVE sub(id) AS (
                        SELECT id FROM burrow.item WHERE outline = o AND id = i
                        UNION ALL SELECT it.id FROM burrow.item it JOIN sub ON it.outline = o AND it.parent = sub.id),
                    gone AS (DELETE FROM burrow.item it USING sub WHERE it.outline = o AND it.id = sub.id RETURNING it.id)
                    SELECT coalesce(jsonb_agg(id), '[]'::jsonb) INTO ids FROM gone;
                END IF;
            ELSE
                RAISE EXCEPTION 'unknown operation %', kind USING ERRCODE = 'invalid_parameter_value';
            END IF;

            IF status <> 'rejected' AND (jsonb_array_length(rows) > 0 OR jsonb_array_length(coalesce(ids, '[]'::jsonb)) > 0) THEN
                UPDATE burrow.outline SET last_seq = last_seq + 1 WHERE id = o RETURNING last_seq INTO seq;
                body := CASE WHEN ids IS NOT NULL THEN jsonb_build_object('kind', 'delete', 'ids', ids)
                        ELSE jsonb_build_object('kind', 'upsert', 'rows', rows) END;
                INSERT INTO burrow.change (outline, seq, op_id, client, body) VALUES (o, seq, op_id, client, body);
                PERFORM pg_notify('burrow_' || replace(o::text, '-', ''), seq::text);
            END IF;
            answer := jsonb_build_object('status', status, 'seq', seq, 'message', message);
            INSERT INTO burrow.op (outline, id, answer) VALUES (o, op_id, answer);
            RETURN answer;
        END $$
        """
}
