import Foundation
import ObjectGraph

/// What the detail pane shows of one item, read at one moment as values: its row, note, times, how many
/// items are below it and its path.
///
/// For example: `try outline.details(of: milk)` is “Milk” with note “oat”, 0 below, path Burrow › Groceries › Milk.
public struct ItemDetails: Sendable, Equatable {
    public let row: ItemRow
    public let note: String?
    /// Nil for items from before the outline kept times (model version 3).
    public let created: Date?
    public let modified: Date?
    /// Items under it at every depth, counted from the rows (never a stored count).
    public let below: Int
    /// Titles from the top of the outline down to the item, both included.
    public let path: [String]
    /// State, priority, dates and properties, when the item has any.
    public let extras: OutlineNode.Extras?

    public init(
        row: ItemRow, note: String?, created: Date?, modified: Date?, below: Int, path: [String], extras: OutlineNode.Extras? = nil
    ) {
        self.extras = extras
        self.row = row
        self.note = note
        self.created = created
        self.modified = modified
        self.below = below
        self.path = path
    }
}
