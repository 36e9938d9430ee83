import ObjectGraph

extension ResultsController {
    /// Row `row` of a level (a controller on `Outline.level(of:)`) as values: a list reads only the rows it
    /// shows, and keeps none of the objects behind them.
    public func itemRow(at row: Int) -> ItemRow {
        guard let item = object(at: row) as? Item else { preconditionFailure("itemRow(at:) on a controller of \(entity.name)") }
        return ItemRow(item)
    }
}
