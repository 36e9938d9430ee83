/// The tasks of the days ahead, as an agenda shows them: what is overdue, then each day from today with
/// what is planned for it or due on it. Done tasks are left out; a task planned for one day and due on
/// another is under both.
///
/// For example: `try outline.agenda(from: "2026-11-29", days: 7)` has `overdue` and seven `days`.
public struct Agenda: Sendable, Equatable {
    /// One task on one day.
    public struct Entry: Sendable, Equatable {
        public let row: ItemRow
        /// Why it is on that day: its deadline (else its planned day).
        public let isDeadline: Bool
        /// The time of day, when the timestamp has one (`09:00`).
        public let time: String?
        /// The titles of the items above it, from the top item's child down to its parent.
        public let path: [String]
    }

    /// Tasks not done whose deadline or planned day is before the first day.
    public let overdue: [Entry]
    /// Each day (`2026-11-29`) with its entries, by time (those without first), then by title.
    public let days: [(day: String, entries: [Entry])]

    /// The English abbreviation of a day's weekday: `Sun` for `2026-11-29`.
    public static func weekday(_ day: String) -> String { OrgTimestamp.dayName(day) ?? "" }

    public static func == (a: Agenda, b: Agenda) -> Bool {
        a.overdue == b.overdue && a.days.map(\.day) == b.days.map(\.day) && a.days.map(\.entries) == b.days.map(\.entries)
    }
}
