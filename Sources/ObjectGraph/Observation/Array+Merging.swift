extension Array {
    /// This array with `incoming[j]` put before the element now at `places[j]` (places ascending, `count` for
    /// the end; equal places keep `incoming`'s order): one pass, copying the runs between places whole. A
    /// results controller merges the rows a change brought in into its list, and their key records into
    /// theirs, with the same places.
    func merging(_ incoming: [Element], at places: [Int]) -> [Element] {
        precondition(incoming.count == places.count, "a place for each incoming element")
        var joined: [Element] = []
        joined.reserveCapacity(count + incoming.count)
        var from = 0
        for (j, p) in places.enumerated() {
            joined.append(contentsOf: self[from..<p])
            joined.append(incoming[j])
            from = p
        }
        joined.append(contentsOf: self[from...])
        return joined
    }
}
