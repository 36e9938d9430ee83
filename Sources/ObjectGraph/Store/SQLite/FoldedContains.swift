import GRDB
import GRDBSQLite

/// The SQL function `og_contains_folded(text, needle)` behind ``ObjectPredicate/TextTest/containsFolded``: 1
/// when `text`, folded as full-text search folds it (``TextFolding``), holds `needle` (folded once by the
/// caller); 0 for NULL or any other type. A C function on the text's bytes: an ASCII text (most rows) is
/// searched in place with its letters lowered, only other text is folded through Foundation, so a view's
/// search over a million titles costs what `instr(lower(x), ?)` did.
enum FoldedContains {
    static func register(_ db: Database) throws {
        let flags = SQLITE_UTF8 | SQLITE_DETERMINISTIC
        let rc = sqlite3_create_function_v2(db.sqliteConnection, "og_contains_folded", 2, flags, nil, function, nil, nil, nil)
        guard rc == SQLITE_OK else { throw DatabaseError(resultCode: ResultCode(rawValue: rc), message: "cannot add og_contains_folded") }
    }

    private static let function: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void = {
        context, count, values in
        guard let values, count == 2, sqlite3_value_type(values[0]) == SQLITE_TEXT, sqlite3_value_type(values[1]) == SQLITE_TEXT,
            let hay = sqlite3_value_text(values[0]), let needle = sqlite3_value_text(values[1])
        else {
            sqlite3_result_int(context, 0)
            return
        }
        let found = contains(
            UnsafeBufferPointer(start: hay, count: Int(sqlite3_value_bytes(values[0]))),
            UnsafeBufferPointer(start: needle, count: Int(sqlite3_value_bytes(values[1]))))
        sqlite3_result_int(context, found ? 1 : 0)
    }

    /// Whether `hay` folded holds `needle` (already folded).
    static func contains(_ hay: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        if needle.isEmpty { return true }
        if !hay.contains(where: { $0 >= 0x80 }) { return search(hay, needle, lowering: true) }
        var folded = TextFolding.fold(String(decoding: hay, as: UTF8.self))
        return folded.withUTF8 { search($0, needle, lowering: false) }
    }

    private static func search(_ hay: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, lowering: Bool) -> Bool {
        let n = needle.count
        guard n <= hay.count else { return false }
        @inline(__always) func at(_ i: Int) -> UInt8 {
            let b = hay[i]
            return lowering && b >= 0x41 && b <= 0x5A ? b | 0x20 : b
        }
        var i = 0
        while i <= hay.count - n {
            if at(i) == needle[0] {
                var k = 1
                while k < n && at(i + k) == needle[k] { k += 1 }
                if k == n { return true }
            }
            i += 1
        }
        return false
    }
}
