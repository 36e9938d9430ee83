extension ResultsController {
    /// The batch for a set of touched rows: where each was, where it is now, and which way it went.
    func diff(_ touched: [Int64: PropertyMask], local: Bool) throws(StoreError) -> ResultsBatch {
        if request.limit != nil || request.offset > 0 { return try diffWindow(touched, local: local, keepingKeys: false) }
        // Many more rows touched than listed (a subtree of 100,000 deleted or put back under one of a level's
        // few rows): the list read again costs less than reading every touched row to learn it is not ours.
        if sectionKey == nil, touched.count > 64, touched.count > 4 * storage.rowIDs.count {
            listRereads += 1
            return try diffWindow(touched, local: local, keepingKeys: true)
        }
        let old = storage.rowIDs
        let oldSections = sections
        if touched.values.allSatisfy({ $0.rawValue & readMask.rawValue == 0 && $0.rawValue != ~0 }) {
            // Updates of properties the request does not read (a batch update marking 100,000 tasks done, on a
            // list sorted by title): no row comes, goes or moves; each touched row in the list is an update in
            // place, found without reading a row (by its cached keys for a few, one pass for many). Inserts
            // and deletes touch every property (~0), as does an update from a writer with another model: a
            // request that reads nothing (every row, by ID) must still see those.
            let many = touched.count * 17 > old.count
            let found =
                sortKeyCache.count == old.count && !many
                ? try cachedPositions(of: touched.keys, in: old) : positions(of: Array(touched.keys), in: old)
            var batch = ResultsBatch()
            batch.updates = found.compactMap { touched[$0.key]!.isEmpty ? nil : $0.value }.sorted().map {
                let at = path($0, in: oldSections)
                return ResultsBatch.Move(at, at)
            }
            // The rows read for the screen (and any read with the IDs) hold the old values: set again, the list
            // drops them, and the next read of a row brings it as it is now.
            if !batch.updates.isEmpty { storage.rowIDs = old }
            return batch
        }
        // The current state of every touched row: its sort keys when it matches the request now.
        let rows = try currentRows(Array(touched.keys), local: local)
        var keysOf: [Int64: [Value]] = [:]
        for (id, row) in rows where request.predicate.evaluate(entity, rowID: id, values: row) {
            keysOf[id] = sortSlots.map { ObjectPredicate.normalized(row[$0]) }
        }
        // Every row of the list has its keys cached (the cache holds rows of the list only): a touched row is in
        // the list when it has cached keys, and found there by them, without a pass over the list.
        let keysComplete = sortKeyCache.count == old.count
        let oldPos = keysComplete ? try cachedPositions(of: touched.keys, in: old) : positions(of: Array(touched.keys), in: old)
        let sortMask = sortSlots.reduce(UInt64(0)) { $0 | 1 << UInt64($1) }
        var removed: [Int64] = [], repositioned: [Int64] = [], added: [Int64] = [], stayed: [Int64] = []
        for (id, mask) in touched {
            switch (oldPos[id] != nil, keysOf[id] != nil) {
            case (true, false): removed.append(id)
            case (false, true): added.append(id)
            case (true, true):
                if mask.rawValue & sortMask != 0 { repositioned.append(id) } else if !mask.isEmpty { stayed.append(id) }
            case (false, false): break
            }
        }
        if removed.isEmpty && added.isEmpty && repositioned.isEmpty && stayed.isEmpty { return ResultsBatch() }

        // What the change told us of each touched row is now the cached sort keys of the rows in the list.
        for id in touched.keys { sortKeyCache[id] = keysOf[id] }
        // The new list: the rows that came in are placed by binary search among the others (on their sort
        // keys, cached or read), unless reading the list again costs less: many rows came in and few of the
        // list's keys are known. That read also brings every row's keys, for the next change.
        let incoming = repositioned + added
        var list: [Int64]
        var merged: [Int64: Int]?
        // The records of the list's keys, kept through the merge when they describe the list as it was.
        var records: ListKeyRecords?
        let uncached = old.isEmpty ? 1 : 1 - min(1, Double(sortKeyCache.count) / Double(old.count))
        if incoming.count > 64 && Double(incoming.count) * 17 * (0.05 + uncached) > Double(old.count) {
            list = try readListWithKeys(expected: old.count + added.count)
        } else {
            list = old
            records = keyRecords.flatMap { $0.describes(old) ? $0 : nil }
            keyRecords = nil
            let out = (removed + repositioned).map { oldPos[$0]! }.sorted(by: >)
            let outAscending = Array(out.reversed())
            if out.count <= 4 {
                for i in out { list.remove(at: i) }
            } else {
                let drop = Set(removed + repositioned)
                list.removeAll { drop.contains($0) }
            }
            records?.remove(atAscending: outAscending)
            // In key order each comes after the one before: its search starts there (galloping, so a gap of
            // g rows costs about 2 log g keys), and one pass merges them all.
            let sortedKeys = sortedByRequest(incoming.map { (keysOf[$0]!, $0) })
            let sortedIn = sortedKeys.map(\.1)
            var incomingRecords: [ListKeyRecords.Record] = []
            if records != nil {
                incomingRecords.reserveCapacity(sortedKeys.count)
                for (k, id) in sortedKeys {
                    guard let r = records!.record(k, id) else {
                        // A number these records cannot write in order with theirs: placed by keys alone.
                        records = nil
                        break
                    }
                    incomingRecords.append(r)
                }
            }
            var places: [Int] = []
            places.reserveCapacity(sortedIn.count)
            var from = 0
            for (j, (k, id)) in sortedKeys.enumerated() {
                let record = records == nil ? nil : incomingRecords[j]
                var lo = from, hi = list.count, step = 1
                while lo + step - 1 < list.count {
                    let i = lo + step - 1
                    if try precedes(i, in: list, records, record, k, id) {
                        lo = i + 1
                        step *= 2
                    } else {
                        hi = i
                        break
                    }
                }
                while lo < hi {
                    let mid = (lo + hi) / 2
                    if try precedes(mid, in: list, records, record, k, id) { lo = mid + 1 } else { hi = mid }
                }
                places.append(lo)
                from = lo
            }
            records?.insert(incomingRecords, at: places)
            if sortedIn.count <= 4 {
                for (j, id) in sortedIn.enumerated().reversed() { list.insert(id, at: places[j]) }
            } else {
                list = list.merging(sortedIn, at: places)
            }
            // New positions from the merge: an incoming row after the ones placed before it; a row that stayed
            // moved up by the rows that left before it and down by those that came in at or before its place.
            var at: [Int64: Int] = [:]
            at.reserveCapacity(sortedIn.count + stayed.count)
            for (j, id) in sortedIn.enumerated() { at[id] = places[j] + j }
            for id in stayed {
                let base = oldPos[id]! - Self.countBelow(outAscending, oldPos[id]!)
                at[id] = base + Self.countBelow(places, base + 1)
            }
            merged = at
        }
        if sortKeyCache.count > Self.sortKeyCacheLimit { sortKeyCache = [:] }
        if list.count > Self.sortKeyCacheLimit { records = nil }
        let newPos = merged ?? positions(of: incoming + stayed, in: list)

        // New sections, by key value, from the old counts.
        var newSections = oldSections
        if sectionKey != nil {
            for id in removed + repositioned {
                let s = path(oldPos[id]!, in: oldSections).section
                let v = oldSections[s].value
                if let k = newSections.firstIndex(where: { ObjectPredicate.sqlEqual($0.value, v) }) { newSections[k].count -= 1 }
            }
            for id in incoming {
                let v = keysOf[id]![0]
                if let k = newSections.firstIndex(where: { ObjectPredicate.sqlEqual($0.value, v) }) {
                    newSections[k].count += 1
                } else {
                    let at = newSections.firstIndex { sectionBefore(v, $0.value) } ?? newSections.count
                    newSections.insert((v, 1), at: at)
                }
            }
            newSections.removeAll { $0.count == 0 }
        } else {
            newSections = [(.null, list.count)]
        }

        var batch = ResultsBatch()
        func present(_ v: Value, _ layout: [(value: Value, count: Int)]) -> Bool {
            layout.contains { ObjectPredicate.sqlEqual($0.value, v) }
        }
        if sectionKey != nil {
            batch.deletedSections = oldSections.indices.filter { !present(oldSections[$0].value, newSections) }
            batch.insertedSections = newSections.indices.filter { !present(newSections[$0].value, oldSections) }
        }
        let deletedSections = Set(batch.deletedSections)
        func oldPath(_ id: Int64) -> ResultIndex { path(oldPos[id]!, in: oldSections) }
        func newPath(_ id: Int64) -> ResultIndex { path(newPos[id]!, in: newSections) }

        batch.deletes = removed.map(oldPath).filter { !deletedSections.contains($0.section) }
        batch.inserts = added.map(newPath)
        // Moves: a repositioned row whose place among the rows that stayed put changed.
        let leftBefore = (removed + repositioned).map { oldPos[$0]! }.sorted()
        let cameBefore = incoming.map { newPos[$0]! }.sorted()
        func countBelow(_ sorted: [Int], _ x: Int) -> Int {
            var lo = 0, hi = sorted.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var byGap: [Int: [Int64]] = [:]
        var moved = Set<Int64>()
        for id in repositioned {
            let oldRank = oldPos[id]! - countBelow(leftBefore, oldPos[id]!)
            let newRank = newPos[id]! - countBelow(cameBefore, newPos[id]!)
            let changedSection =
                sectionKey != nil
                && !ObjectPredicate.sqlEqual(oldSections[oldPath(id).section].value, keysOf[id]![0])
            if oldRank != newRank || changedSection { moved.insert(id) } else { byGap[oldRank, default: []].append(id) }
        }
        // Within one gap, rows that keep their order among themselves are updates; the others moved.
        for (_, group) in byGap {
            let seq = group.sorted { oldPos[$0]! < oldPos[$1]! }
            let keep = ResultsController.longestIncreasing(seq.map { newPos[$0]! })
            for (i, id) in seq.enumerated() where !keep.contains(i) { moved.insert(id) }
        }
        for id in repositioned {
            let from = oldPath(id), to = newPath(id)
            if moved.contains(id) {
                if deletedSections.contains(from.section) {
                    batch.inserts.append(to)
                } else {
                    batch.moves.append(ResultsBatch.Move(from, to))
                }
            } else {
                batch.updates.append(ResultsBatch.Move(from, to))
            }
        }
        batch.updates += stayed.map { ResultsBatch.Move(oldPath($0), newPath($0)) }
        batch.deletes.sort()
        batch.inserts.sort()
        batch.moves.sort { $0.from < $1.from }
        batch.updates.sort { $0.from < $1.from }

        storage.rowIDs = list
        if var records {
            // The list's own buffer, shared: what `describes` checks.
            records.list = list
            keyRecords = records
        }
        sections = newSections
        return batch
    }

    /// The batch of a request with a limit or an offset (a change anywhere can push rows out of the window
    /// or pull others in, rows the change never touched), or of a change that touched many more rows than
    /// the list holds: the list is read again and compared. Of the
    /// rows in both lists, those out of their old relative order moved (all but a longest run in order);
    /// the others the change touched are updates.
    private func diffWindow(_ touched: [Int64: PropertyMask], local: Bool, keepingKeys: Bool) throws(StoreError) -> ResultsBatch {
        precondition(sectionKey == nil, "a results controller with sections takes no limit or offset")
        let old = storage.rowIDs
        // A window's rows are not all the rows that match, which the cached keys must be.
        let new = keepingKeys ? try readListWithKeys(expected: touched.count) : try context.fetch(request).rowIDs
        if !keepingKeys {
            sortKeyCache = [:]
            keyRecords = nil
        }
        let oldPos = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($1, $0) })
        let newPos = Dictionary(uniqueKeysWithValues: new.enumerated().map { ($1, $0) })
        var batch = ResultsBatch()
        batch.deletes = old.indices.filter { newPos[old[$0]] == nil }.map { ResultIndex(0, $0) }
        batch.inserts = new.indices.filter { oldPos[new[$0]] == nil }.map { ResultIndex(0, $0) }
        let kept = old.filter { newPos[$0] != nil }
        let inOrder = ResultsController.longestIncreasing(kept.map { newPos[$0]! })
        for (k, id) in kept.enumerated() {
            let move = ResultsBatch.Move(ResultIndex(0, oldPos[id]!), ResultIndex(0, newPos[id]!))
            if !inOrder.contains(k) {
                batch.moves.append(move)
            } else if let mask = touched[id], !mask.isEmpty {
                batch.updates.append(move)
            }
        }
        storage.rowIDs = new
        sections = [(.null, new.count)]
        return batch
    }

    /// Rows as they are now (missing: deleted). A local save's objects are current in memory.
    private func currentRows(_ ids: [Int64], local: Bool) throws(StoreError) -> [Int64: [Value]] {
        var out: [Int64: [Value]] = [:]
        var missing: [Int64] = []
        for id in ids {
            if local, let o = context.registered[ObjectID(entity: entity.index, rowID: id)], !o.isFault, !o.isDeleted,
                !o.hasChanges
            {
                out[id] = o.values
            } else {
                missing.append(id)
            }
        }
        if !missing.isEmpty {
            let loaded = try context.loadRows(entity: entity, ids: missing)
            for (k, row) in loaded.enumerated() { if let row { out[missing[k]] = row } }
        }
        return out
    }

    /// The current sort keys of a row already in the list: cached (what a fetch or a change read of it), or
    /// read now and kept.
    private func probe(_ id: Int64) throws(StoreError) -> [Value] {
        if let k = sortKeyCache[id] { return k }
        let oid = ObjectID(entity: entity.index, rowID: id)
        let values: [Value]
        if let o = context.registered[oid], !o.isFault, !o.isDeleted {
            values = o.committed ?? o.values
        } else {
            values = try context.loadRows(entity: entity, ids: [id]).first! ?? entity.defaults
        }
        let k = sortSlots.map { ObjectPredicate.normalized(values[$0]) }
        sortKeyCache[id] = k
        return k
    }

    /// The list read again, with the sort keys of every row, which replace the cache; a list that would hold
    /// more than the cache keeps is read as IDs alone (reading keys to drop them costs a third more).
    private func readListWithKeys(expected: Int) throws(StoreError) -> [Int64] {
        guard expected <= Self.sortKeyCacheLimit else {
            sortKeyCache = [:]
            keyRecords = nil
            return try context.fetch(request).rowIDs
        }
        let rows = try context.store.backend.fetchValues(request, of: entity, slots: sortSlots)
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        var keys: [Int64: [Value]] = [:]
        var inOrder: [[Value]] = []
        let keep = rows.count <= Self.sortKeyCacheLimit
        if keep {
            keys.reserveCapacity(rows.count)
            inOrder.reserveCapacity(rows.count)
        }
        for row in rows {
            ids.append(row.id)
            if keep {
                let k = row.values.map(ObjectPredicate.normalized)
                keys[row.id] = k
                inOrder.append(k)
            }
        }
        sortKeyCache = keys
        keyRecords = keep ? ListKeyRecords(inOrder, of: ids, ascending: sortAscending, idAscending: idAscending) : nil
        return ids
    }

    /// Rows whose sort keys a controller keeps at most: beyond, they are read when needed (a list of a
    /// million rows would hold some 80 MB of keys).
    static let sortKeyCacheLimit = 262_144

    /// Sort keys of many rows (for sections at fetch time).
    func sortValues(_ ids: [Int64]) throws(StoreError) -> [Int64: [Value]] {
        var out: [Int64: [Value]] = [:]
        var start = 0
        while start < ids.count {
            let chunk = Array(ids[start..<min(ids.count, start + 512)])
            for (k, row) in try context.loadRows(entity: entity, ids: chunk).enumerated() {
                out[chunk[k]] = sortSlots.map { ObjectPredicate.normalized(row?[$0] ?? .null) }
            }
            start += 512
        }
        return out
    }

    /// How many of `sorted` (ascending) are below `x`.
    static func countBelow(_ sorted: [Int], _ x: Int) -> Int {
        var lo = 0, hi = sorted.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if sorted[mid] < x { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Positions in `list` of those of `ids` that are in it, when every row of it has cached keys: each found
    /// by a binary search on them.
    private func cachedPositions(of ids: Dictionary<Int64, PropertyMask>.Keys, in list: [Int64]) throws(StoreError) -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        var records = keyRecords.flatMap { $0.describes(list) ? $0 : nil }
        for id in ids {
            guard let k = sortKeyCache[id] else { continue }
            let record = records?.record(k, id)
            var lo = 0, hi = list.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if try precedes(mid, in: list, records, record, k, id) { lo = mid + 1 } else { hi = mid }
            }
            guard lo < list.count, list[lo] == id else {
                // The cache and the list disagree (never expected): fall back to looking.
                return positions(of: Array(ids), in: list)
            }
            out[id] = lo
        }
        return out
    }

    /// Positions of `ids` in `list`: one scan per ID for a few, one pass with a set for many.
    private func positions(of ids: [Int64], in list: [Int64]) -> [Int64: Int] {
        var out: [Int64: Int] = [:]
        if ids.count <= 8 {
            for id in ids { if let i = list.firstIndex(of: id) { out[id] = i } }
        } else {
            let set = Set(ids)
            for (i, x) in list.enumerated() where set.contains(x) { out[x] = i }
        }
        return out
    }

    /// `rows` in the request's order: by their bytes (see `SortKeyBytes`) when there are many.
    private func sortedByRequest(_ rows: [([Value], Int64)]) -> [([Value], Int64)] {
        guard rows.count > 32, let bytes = SortKeyBytes(rows, ascending: sortAscending, idAscending: idAscending)
        else { return rows.sorted(by: before) }
        return bytes.sortedIndexes().map { rows[$0] }
    }

    /// True when the row at `position` of `list` comes before the row of keys `k` and ID `id`: by their records
    /// when those tell (`record` is that row's, in `records`, which describe `list`), else by keys.
    private func precedes(
        _ position: Int, in list: [Int64], _ records: ListKeyRecords?, _ record: ListKeyRecords.Record?, _ k: [Value], _ id: Int64
    ) throws(StoreError) -> Bool {
        if let records, let record {
            let c = records.compare(at: position, with: record)
            if c != 0 { return c < 0 }
        }
        let m = list[position]
        return before((try probe(m), m), (k, id))
    }

    /// The request's order on (sort keys, ID).
    private func before(_ a: ([Value], Int64), _ b: ([Value], Int64)) -> Bool {
        for i in sortAscending.indices {
            let c = Value.compare(a.0[i], b.0[i])
            if c != 0 { return sortAscending[i] ? c < 0 : c > 0 }
        }
        return idAscending ? a.1 < b.1 : a.1 > b.1
    }

    private func sectionBefore(_ a: Value, _ b: Value) -> Bool {
        let c = Value.compare(ObjectPredicate.normalized(a), ObjectPredicate.normalized(b))
        return request.sortKeys[0].ascending ? c < 0 : c > 0
    }

    /// Indexes (into `values`) of one longest strictly increasing subsequence.
    static func longestIncreasing(_ values: [Int]) -> Set<Int> {
        var tails: [Int] = [], tailIndex: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tails.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tails[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            if lo > 0 { previous[i] = tailIndex[lo - 1] }
            if lo == tails.count {
                tails.append(v)
                tailIndex.append(i)
            } else {
                tails[lo] = v
                tailIndex[lo] = i
            }
        }
        var out = Set<Int>()
        var k = tailIndex.last ?? -1
        while k >= 0 {
            out.insert(k)
            k = previous[k]
        }
        return out
    }
}
